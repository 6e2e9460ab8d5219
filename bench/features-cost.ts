// What the rows API's richer reads and writes by value cost on a 100,000-row tab, against plain
// listing (bench/README.md).
//   npx tsx bench/features-cost.ts [--rows 100000] [--rounds 5]
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { log, percentile, runBench } from "./support";

const { values: args } = parseArgs({
  options: { rows: { type: "string", default: "100000" }, rounds: { type: "string", default: "5" } },
});
const ROWS = Number(args.rows);
const ROUNDS = Number(args.rounds);
const STATUSES = ["open", "held", "shipped", "returned", "lost"];

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), "sheetapi-bench-features-"));
  try {
    const { startGoogleEmulator } = await import("../emulators/google/server");
    const google = await startGoogleEmulator();
    Object.assign(process.env, {
      GOOGLE_API_ROOT_URL: google.url,
      DATA_DIR: dataDir,
      DATABASE_URL: "",
      UPSTASH_REDIS_REST_URL: "",
      LOG_LEVEL: "fatal",
      GOOGLE_QUOTA_PER_IDENTITY_MINUTE: "1000000",
      GOOGLE_QUOTA_PER_PROJECT_MINUTE: "1000000",
    });
    const { EMULATOR_SERVICE_ACCOUNT } = await import("../emulators/google/seed");
    const { uploadServiceAccountKey } = await import("../testing/google");
    const { config } = await import("@/lib/env");
    await uploadServiceAccountKey(google.url, config().google.serviceAccount);
    const { withGoogle } = await import("@/lib/sheets/sheet-access");
    const { readSheetModel } = await import("@/lib/sheets/read/read-model");
    const { fetchTab } = await import("@/lib/sheets/read/tab-cache");
    const { applyQuery, parseListQuery, queryColumns, MAX_CSV_ROWS } = await import("@/lib/sheets/read/query");
    const { rowToJson } = await import("@/lib/sheets/values/rows");
    const { aggregate, parseAggregate, parseDistinct } = await import("@/lib/sheets/read/aggregate");
    const { csvStream } = await import("@/lib/sheets/read/csv");
    const { updateWhere, deleteWhere } = await import("@/lib/sheets/write/filtered-writes");
    const { upsertRows } = await import("@/lib/sheets/write/keyed-writes");
    const { updateRow } = await import("@/lib/sheets/write/update-row");

    const grid = [
      ["id", "sku", "status", "customer", "qty", "price", "note"],
      ...Array.from({ length: ROWS }, (_, i) => [
        i + 1,
        `SKU-${i + 1}`,
        STATUSES[i % 5],
        `customer ${i % 997}`,
        i % 50,
        (i % 1000) / 10,
        i % 7 ? "" : "gift",
      ]),
    ];
    log(`creating a ${ROWS.toLocaleString("en-US")}-row tab`);
    const res = await fetch(`${google.url}/__admin/spreadsheets`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        title: "Bench",
        members: { [EMULATOR_SERVICE_ACCOUNT]: "writer" },
        tabs: [{ title: "Orders", rows: grid }],
      }),
    });
    const id = String(((await res.json()) as { spreadsheetId: string }).spreadsheetId);
    const sheet = {
      id,
      access: "service_account" as const,
      refreshTokenCiphertext: null,
      cacheTtlSeconds: 10,
      maxStaleSeconds: 0,
      writable: true,
    };
    const model = (await withGoogle(sheet, "spreadsheets.get", (c) => readSheetModel(c.sheets, id))).tabs[0]!;
    const data = await fetchTab(sheet, model);
    const cols = queryColumns(data);

    const list = (q: string, opts?: { maxLimit: number }) => {
      const query = parseListQuery(new URLSearchParams(q), cols, opts);
      return applyQuery(data, query).rows.map((r) => rowToJson(data, r, query));
    };
    const csv = async () => {
      const query = parseListQuery(new URLSearchParams(""), cols, { maxLimit: MAX_CSV_ROWS });
      const rows = applyQuery(data, query).rows;
      const stream = csvStream(
        cols,
        (function* () {
          for (const r of rows) yield rowToJson(data, r, query);
        })(),
      );
      let bytes = 0;
      for await (const chunk of stream as unknown as AsyncIterable<Uint8Array>) bytes += chunk.length;
      return bytes;
    };
    // The filters as the route parses them for an aggregate (timed with it).
    const filters = (query: string) => parseListQuery(new URLSearchParams(query), queryColumns(data));
    const reads: [string, () => unknown][] = [
      ["plain list (limit 100)", () => list("")],
      ["filter + sort + page", () => list("filter=qty>25,status=open&sort=price&order=desc&limit=50")],
      ["or + ~= filter", () => list(`filter=note=gift&or=${encodeURIComponent("customer~=*7,sku~=sku-9*")}&limit=100`)],
      ["two-column sort", () => list("sort=status,price&order=asc,desc&limit=100")],
      [
        "_aggregate group_by status, sum/avg",
        () =>
          aggregate(
            data,
            parseAggregate(new URLSearchParams("group_by=status&aggregate=count,sum:price,avg:qty"), data),
            filters(""),
          ),
      ],
      [
        "_aggregate filtered, 997 groups",
        () =>
          aggregate(
            data,
            parseAggregate(new URLSearchParams("group_by=customer&aggregate=count,max:price"), data),
            filters("filter=qty>10"),
          ),
      ],
      [
        "_distinct customer",
        () => aggregate(data, parseDistinct(new URLSearchParams("column=customer"), data), filters("")),
      ],
      ["whole tab as CSV", csv],
    ];
    const times = new Map<string, number[]>();
    for (let round = 0; round < ROUNDS; round++) {
      // The order turns each round, so drift and GC hit every measure alike.
      for (let k = 0; k < reads.length; k++) {
        const [name, run] = reads[(k + round) % reads.length]!;
        const t0 = performance.now();
        await run();
        times.set(name, [...(times.get(name) ?? []), performance.now() - t0]);
      }
    }
    const plain = percentile(
      [...times.get("plain list (limit 100)")!].sort((a, b) => a - b),
      50,
    );
    console.log(
      `\nReads from the cached copy of a ${ROWS.toLocaleString("en-US")}-row tab (${ROUNDS} rounds; the first builds the indexes and sort orders a query needs):`,
    );
    console.log("\n| query | first ms | p50 ms | max ms | p50 / plain list |\n|---|---|---|---|---|");
    for (const [name] of reads) {
      const t = times.get(name)!;
      const sorted = [...t].sort((a, b) => a - b);
      console.log(
        `| ${name} | ${t[0]!.toFixed(1)} | ${percentile(sorted, 50).toFixed(1)} | ${sorted.at(-1)!.toFixed(1)} | ${(percentile(sorted, 50) / plain).toFixed(1)} |`,
      );
    }

    const calls = () => [...google.calls.values()].reduce((a, b) => a + b, 0);
    const writes: [string, () => Promise<unknown>][] = [];
    let serial = 0;
    writes.push(["plain list, read from Google", () => fetchTab(sheet, model)]);
    writes.push([
      "one-row update (PUT)",
      () => updateRow({ sheet, tab: model, rowId: String(1 + (serial++ % 1000)), body: { note: `n${serial}` } }),
    ]);
    writes.push([
      "filtered update, 100 rows",
      () => {
        const from = 2000 + (serial++ % 50) * 100;
        return updateWhere({
          sheet,
          tab: model,
          params: new URLSearchParams(`filter=id>=${from},id<${from + 100}&limit=100`),
          body: { note: `u${serial}` },
        });
      },
    ]);
    writes.push([
      "upsert 100 rows (50 new)",
      () => {
        const base = serial++ * 50;
        return upsertRows({
          sheet,
          tab: model,
          params: new URLSearchParams({ upsert: "sku" }),
          body: Array.from({ length: 100 }, (_, i) => ({
            sku: i < 50 ? `SKU-${i + 1}` : `NEW-${base + i}`,
            note: "up",
          })),
        });
      },
    ]);
    writes.push([
      "filtered delete, ~100 rows",
      () =>
        deleteWhere({
          sheet,
          tab: model,
          params: new URLSearchParams(`filter=customer=customer ${serial++ % 997}&limit=1000`),
        }),
    ]);
    const wt = new Map<string, { ms: number[]; calls: number[] }>();
    for (let round = 0; round < ROUNDS; round++) {
      for (let k = 0; k < writes.length; k++) {
        const [name, run] = writes[(k + round) % writes.length]!;
        const c0 = calls();
        const t0 = performance.now();
        await run();
        const r = wt.get(name) ?? { ms: [], calls: [] };
        r.ms.push(performance.now() - t0);
        r.calls.push(calls() - c0);
        wt.set(name, r);
      }
    }
    const base = percentile(
      [...wt.get("plain list, read from Google")!.ms].sort((a, b) => a - b),
      50,
    );
    console.log(
      `\nWrites on the same tab, each one guarded batchUpdate after a read of the tab under its lock (${ROUNDS} rounds, interleaved):`,
    );
    console.log(
      "\n| operation | Google calls (mean) | p50 ms | max ms | p50 / plain uncached list |\n|---|---|---|---|---|",
    );
    for (const [name] of writes) {
      const r = wt.get(name)!;
      const sorted = [...r.ms].sort((a, b) => a - b);
      console.log(
        `| ${name} | ${(r.calls.reduce((a, b) => a + b, 0) / r.calls.length).toFixed(1)} | ${percentile(sorted, 50).toFixed(0)} | ${sorted.at(-1)!.toFixed(0)} | ${(percentile(sorted, 50) / base).toFixed(2)} |`,
      );
    }
    await google.stop();
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

runBench(main);
