// The cost of the guarded write path (DECISIONS 5-7a) against the one before it, loaded from git
// (bench/README.md).
//   npx tsx bench/write-cost.ts [--ops 30] [--rounds 3]
import { execSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { log, percentile, runBench } from "./support";

const { values: args } = parseArgs({
  options: { ops: { type: "string", default: "30" }, rounds: { type: "string", default: "3" } },
});
const OPS = Number(args.ops);
const ROUNDS = Number(args.rounds);
const TIMEOUT_MS = 4000;

const BASELINE = join("lib", "sheets", "row-writes.baseline-bench.ts");

type Impl = {
  createRows: (...a: unknown[]) => Promise<unknown>;
  updateRow: (...a: unknown[]) => Promise<unknown>;
  deleteRow: (...a: unknown[]) => Promise<unknown>;
};

async function main() {
  const introduced = execSync("git log --diff-filter=A --format=%H -- lib/sheets/write/write-guard.ts")
    .toString()
    .trim()
    .split("\n")
    .at(-1)!;
  writeFileSync(BASELINE, execSync(`git show ${introduced}^:lib/sheets/write/row-writes.ts`));
  const dataDir = mkdtempSync(join(tmpdir(), "sheetapi-bench-writes-"));
  try {
    const { startGoogleEmulator } = await import("../emulators/google/server");
    const google = await startGoogleEmulator();
    Object.assign(process.env, {
      GOOGLE_API_ROOT_URL: google.url,
      DATA_DIR: dataDir,
      DATABASE_URL: "",
      UPSTASH_REDIS_REST_URL: "",
      LOG_LEVEL: "fatal",
      GOOGLE_REQUEST_TIMEOUT_MS: String(TIMEOUT_MS),
      GOOGLE_QUOTA_PER_IDENTITY_MINUTE: "1000000",
      GOOGLE_QUOTA_PER_PROJECT_MINUTE: "1000000",
    });
    const { EMULATOR_SERVICE_ACCOUNT } = await import("../emulators/google/seed");
    const { uploadServiceAccountKey } = await import("../testing/google");
    const { config } = await import("@/lib/env");
    await uploadServiceAccountKey(google.url, config().google.serviceAccount);
    const { withGoogle } = await import("@/lib/sheets/sheet-access");
    const { readSheetModel } = await import("@/lib/sheets/read/read-model");
    const before = (await import(`../${BASELINE}`)) as unknown as Impl;
    // The current verbs take one request object: adapted to the baseline's positional calls.
    const [{ createRows }, { updateRow }, { deleteRow }] = await Promise.all([
      import("@/lib/sheets/write/create-rows"),
      import("@/lib/sheets/write/update-row"),
      import("@/lib/sheets/write/delete-row"),
    ]);
    type Args = [Parameters<typeof createRows>[0]["sheet"], Parameters<typeof createRows>[0]["tab"]];
    const after: Impl = {
      createRows: (...a) => createRows({ sheet: (a as Args)[0], tab: (a as Args)[1], body: a[2] }),
      updateRow: (...a) => updateRow({ sheet: (a as Args)[0], tab: (a as Args)[1], rowId: a[2] as string, body: a[3] }),
      deleteRow: (...a) => deleteRow({ sheet: (a as Args)[0], tab: (a as Args)[1], rowId: a[2] as string }),
    };

    const newSheet = async (rows = 200) => {
      const grid = [
        ["id", "name", "qty", "note"],
        ...Array.from({ length: rows }, (_, i) => [i + 1, `row ${i + 1}`, i, ""]),
      ];
      const res = await fetch(`${google.url}/__admin/spreadsheets`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          title: "Bench",
          members: { [EMULATOR_SERVICE_ACCOUNT]: "writer" },
          tabs: [{ title: "Items", rows: grid }],
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
      return { id, sheet, model };
    };
    const calls = () => [...google.calls.values()].reduce((a, b) => a + b, 0);
    const dataRows = (id: string) => google.store.get(id)!.tabs[0]!.rows.filter((r) => r?.some((c) => c)).length - 1;

    type Result = { calls: number[]; ms: number[] };
    const results = new Map<string, Result>();
    const note = (key: string, c: number, ms: number) => {
      const r = results.get(key) ?? { calls: [], ms: [] };
      r.calls.push(c);
      r.ms.push(ms);
      results.set(key, r);
    };
    const failures = new Map<string, number>();
    const timed = async (key: string, work: () => Promise<unknown>) => {
      const c0 = calls();
      const t0 = performance.now();
      try {
        await work();
      } catch (err) {
        if (!failures.has(key)) log(`  ${key} failed: ${(err as Error).message}`);
        failures.set(key, (failures.get(key) ?? 0) + 1);
      }
      note(key, calls() - c0, performance.now() - t0);
    };

    for (let round = 0; round < ROUNDS; round++) {
      // Sides alternate, so drift over the run hits both.
      for (const [side, impl] of (round % 2
        ? [
            ["after", after],
            ["before", before],
          ]
        : [
            ["before", before],
            ["after", after],
          ]) as [string, Impl][]) {
        log(`round ${round + 1}: ${side}`);
        const { sheet, model } = await newSheet();
        const create = (body: unknown) =>
          side === "before" ? impl.createRows(sheet, model, undefined, body) : impl.createRows(sheet, model, body);
        for (let i = 0; i < OPS; i++) await timed(`${side} create`, () => create({ name: `new ${i}` }));
        for (let i = 0; i < OPS; i++)
          await timed(`${side} update`, () => impl.updateRow(sheet, model, String(i + 1), { note: `n${i}` }));
        for (let i = 0; i < OPS; i++)
          await timed(`${side} delete`, () => impl.deleteRow(sheet, model, String(100 + i)));
        // Four writers at once on one tab, each updating its own rows.
        await Promise.all(
          [0, 1, 2, 3].map(async (w) => {
            for (let i = 0; i < OPS / 3; i++)
              await timed(`${side} update, 4 writers`, () =>
                impl.updateRow(sheet, model, String(40 + w * 15 + i), { qty: w }),
              );
          }),
        );
        // One create whose write Google applies 1.5 s after the service gave up.
        const late = await newSheet(10);
        google.faults.add({
          route: side === "before" ? "values.append" : "spreadsheets.batchUpdate",
          delayMs: TIMEOUT_MS + 1500,
          spreadsheetId: late.id,
        });
        const lateCreate = () =>
          side === "before"
            ? impl.createRows(late.sheet, late.model, undefined, { name: "late" })
            : impl.createRows(late.sheet, late.model, { name: "late" });
        let status = "201";
        await timed(`${side} create, answered late`, () =>
          lateCreate().catch((err: { status?: number }) => (status = String(err.status ?? "error"))),
        );
        await new Promise((r) => setTimeout(r, 2500));
        log(`  late create answered ${status}; rows written: ${dataRows(late.id) - 10}`);
        note(`${side} late rows written`, dataRows(late.id) - 10, 0);
      }
    }
    console.log("\n| write | side | Google calls per write (mean) | p50 ms | p99 ms | n |\n|---|---|---|---|---|---|");
    for (const kind of ["create", "update", "delete", "update, 4 writers", "create, answered late"]) {
      for (const side of ["before", "after"]) {
        const r = results.get(`${side} ${kind}`)!;
        const sorted = [...r.ms].sort((a, b) => a - b);
        const mean = r.calls.reduce((a, b) => a + b, 0) / r.calls.length;
        console.log(
          `| ${kind} | ${side} | ${mean.toFixed(2)} | ${percentile(sorted, 50).toFixed(0)} | ${percentile(sorted, 99).toFixed(0)} | ${r.ms.length} |`,
        );
      }
    }
    if (failures.size) console.log(`failed writes: ${JSON.stringify(Object.fromEntries(failures))}`);
    for (const side of ["before", "after"])
      console.log(
        `rows written by one create answered late (${side}): ${results.get(`${side} late rows written`)!.calls.join(", ")}`,
      );
    await google.stop();
  } finally {
    rmSync(BASELINE, { force: true });
    rmSync(dataDir, { recursive: true, force: true });
  }
}

runBench(main);
