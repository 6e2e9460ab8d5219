// What a write to one tab costs the reads of the sheet's other tabs (target: ratio <= 1.5), then
// an edit in the Sheets UI (bench/README.md).
//   npx tsx bench/sibling-reads.ts [--rounds 5] [--pairs 10]
import { parseArgs } from "node:util";
import { inProcessService } from "./in-process";
import { rows, runBench } from "./support";

const { values: args } = parseArgs({
  options: { rounds: { type: "string", default: "5" }, pairs: { type: "string", default: "10" } },
});
const SA = "sheetapi-local@sheetapi-local.iam.gserviceaccount.com";
const log = (line: string) => console.log(`▸ ${line}`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const stats = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return `min ${s[0]!.toFixed(2)}, median ${median(s).toFixed(2)}, max ${s[s.length - 1]!.toFixed(2)}`;
};

async function main() {
  const { google, db, stop } = await inProcessService("siblings", {
    google: { modifiedTimeLagMs: 0 },
    env: { RATE_LIMIT_MULTIPLIER: "100000", LOG_LEVEL: "warn" },
  });
  const { proveAccessWithGoogle } = await import("@/testing/google");
  const { createUser } = await import("@/db/queries/users");
  const { registerSheet } = await import("@/lib/sheets/registration/registration");
  const { rowsClient } = await import("@/testing/rows-client");

  log("a spreadsheet with a 100,000 x 10 tab and a 100-row tab");
  const { spreadsheetId } = (await (
    await fetch(`${google.url}/__admin/spreadsheets`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        title: "Siblings",
        members: { [SA]: "writer", "siblings@example.com": "owner" },
        tabs: [
          { title: "Big", rows: rows(100_000, 10) },
          { title: "Small", rows: rows(100, 7) },
        ],
      }),
    })
  ).json()) as { spreadsheetId: string };
  const user = await createUser({ email: "siblings@example.com", plan: "business" });
  await proveAccessWithGoogle(user, [spreadsheetId], "siblings@example.com");
  const api = rowsClient(spreadsheetId, (await registerSheet({ userId: user.id, sheetUrl: spreadsheetId })).apiKey!);
  // A TTL longer than the run: every read not served from cache is one a write or an edit caused.
  const { sql } = await import("drizzle-orm");
  await db.db.execute(
    sql`update sheets set cache_ttl_seconds = 3600, version = version + 1 where id = ${spreadsheetId}`,
  );
  const { getSheet } = await import("@/db/queries/sheets");
  const { publishSheet } = await import("@/lib/sheets/sheet-record");
  await publishSheet((await getSheet({ id: spreadsheetId }))!);
  const BIG_QUERY = "filter=c2>500&sort=c4&order=desc&limit=50";
  await api.list("Big", BIG_QUERY);
  await api.list("Small");
  const sheetsReads = () => (google.calls.get("values.get") ?? 0) + (google.calls.get("values.batchGet") ?? 0);
  const timedRead = async () => {
    const started = performance.now();
    const res = await api.list("Small");
    if (res.status !== 200) throw new Error(`read answered ${res.status}`);
    return { ms: performance.now() - started, cache: res.headers.get("x-cache") };
  };

  const ratios: number[] = [];
  const misses = { cached: 0, afterWrite: 0 };
  const googleReads = { cached: 0, afterWrite: 0 };
  for (let round = 0; round < Number(args.rounds); round++) {
    const cached: number[] = [];
    const afterWrite: number[] = [];
    for (let pair = 0; pair < Number(args.pairs); pair++) {
      let before = sheetsReads();
      const plain = await timedRead();
      googleReads.cached += sheetsReads() - before;
      if (plain.cache !== "HIT") misses.cached++;
      cached.push(plain.ms);
      const created = await api.create("Big", { c1: `new ${round}-${pair}` });
      if (created.status !== 201) throw new Error(`create answered ${created.status}`);
      before = sheetsReads();
      const next = await timedRead();
      googleReads.afterWrite += sheetsReads() - before;
      if (next.cache !== "HIT") misses.afterWrite++;
      afterWrite.push(next.ms);
      await sleep(20);
    }
    ratios.push(median(afterWrite) / median(cached));
    log(
      `round ${round + 1}: cached read of Small p50 ${median(cached).toFixed(2)} ms, right after a create on Big p50 ${median(afterWrite).toFixed(2)} ms`,
    );
  }

  log("an edit in the Sheets UI, then a read of Small past the change-check interval");
  await api.list("Big", BIG_QUERY); // Big current again after the creates
  await sleep(2_100);
  await api.list("Small");
  google.calls.clear();
  await fetch(`${google.url}/__admin/spreadsheets/${spreadsheetId}/values`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ range: "'Small'!B2", values: [["edited"]] }),
  });
  await sleep(2_100);
  const small = await api.list("Small");
  const big = await api.list("Big", BIG_QUERY);
  await sleep(50);

  const pairs = Number(args.rounds) * Number(args.pairs);
  console.log(`\n| measure | result | target |`);
  console.log(`|---|---|---|`);
  console.log(
    `| read of a cached 100-row tab right after a create on its 100,000-row sibling / the same read without the write | ${stats(ratios)} | <= 1.5 |`,
  );
  console.log(
    `| Google reads caused by ${pairs} reads of the small tab: without a write before / right after a create | ${googleReads.cached} / ${googleReads.afterWrite} (${misses.cached} / ${misses.afterWrite} not served from cache) | 0 / 0 |`,
  );
  console.log(
    `| an edit in the Sheets UI: Google reads for the next reads of both tabs | ${google.calls.get("values.batchGet") ?? 0} batchGet + ${google.calls.get("values.get") ?? 0} values.get (Small ${small.headers.get("x-cache")}, then Big ${big.headers.get("x-cache")}) | one batch |`,
  );
  await stop();
}

runBench(main);
