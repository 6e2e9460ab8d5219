// Webhooks: the added cost of change detection on a 100,000-row tab, and events delivered per
// second. In-process, on the embedded PGlite (or Postgres with --postgres <url>), with a local
// receiver answering 204. Sides interleaved per round; min/median/max of the rounds.
//   npx tsx bench/webhooks.ts [--rounds 5] [--rows 100000] [--events 2000] [--postgres postgres://...]
import { mkdtempSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";

const { values: args } = parseArgs({
  options: {
    rounds: { type: "string", default: "5" },
    rows: { type: "string", default: "100000" },
    events: { type: "string", default: "2000" },
    postgres: { type: "string" },
  },
});
const ROUNDS = Number(args.rounds);
const ROWS = Number(args.rows);
const EVENTS = Number(args.events);

process.env.DATA_DIR = mkdtempSync(join(tmpdir(), "sheetapi-bench-webhooks-"));
process.env.WEBHOOK_ALLOWED_TARGETS = "127.0.0.1";
process.env.LOG_LEVEL = "warn";
process.env.DATABASE_URL = "";

const { openDatabase, setDatabase } = await import("@/db/client");
const { migrateDatabase } = await import("@/db/migrator");
const { sheets, users } = await import("@/db/schema");
const { parseTabValues } = await import("@/lib/sheets/values/rows");
const { noteTabRead, recordApiWrite, startTracking, digestOf } = await import("@/lib/webhooks/changes");
const { copyOf } = await import("@/lib/webhooks/diff");
const { addEndpoint, deliveryProgress } = await import("@/lib/webhooks/endpoints");
const { startDelivery } = await import("@/lib/webhooks/deliver");
const { stopQueue } = await import("@/lib/webhooks/queue");

const handle = args.postgres
  ? openDatabase({ kind: "postgres", url: args.postgres })
  : openDatabase({ kind: "pglite", dir: "memory://" });
await migrateDatabase(handle);
setDatabase(handle);
const db = handle.db;
const sheetId = `bench-${Date.now()}`;
const [user] = await db
  .insert(users)
  .values({ email: `${sheetId}@example.com` })
  .returning();
// The bench's own sheet: no person proved access, so none is re-checked (DECISIONS 18).
await db
  .insert(sheets)
  .values({ id: sheetId, userId: user!.id, name: "bench", access: "service_account", accessState: "service" });
await startTracking(sheetId);

const stats = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return { min: s[0]!, median: s[Math.floor(s.length / 2)]!, max: s[s.length - 1]! };
};
const fmt = (x: { min: number; median: number; max: number }, unit = "ms") =>
  `${x.min.toFixed(1)} / ${x.median.toFixed(1)} / ${x.max.toFixed(1)} ${unit}`;
const time = async (work: () => unknown) => {
  const t = performance.now();
  await work();
  return performance.now() - t;
};

// --- Change detection on a ROWS x 10 tab ----------------------------------------------------------
const header = ["id", ...Array.from({ length: 9 }, (_, i) => `c${i + 1}`)];
const values = [
  header,
  ...Array.from({ length: ROWS }, (_, r) => [
    String(r + 1),
    ...Array.from({ length: 9 }, (_, c) => `value ${r} ${c} ${(r * 7 + c) % 1000}`),
  ]),
];
const tab = "Big";
const read = (v: string[][]) => parseTabValues(tab, v);
// The starting copy.
await noteTabRead(sheetId, read(values), Date.now());

const parse: number[] = [];
const unchanged: number[] = [];
const changed: number[] = [];
const apiWrite: number[] = [];
for (let round = 0; round < ROUNDS; round++) {
  parse.push(await time(() => read(values)));
  // What a re-read of an unchanged tab adds: the digest compared with the last one (no query).
  const data = read(values);
  unchanged.push(await time(() => noteTabRead(sheetId, data, Date.now())));
  // A cell edited in the sheet: diff against the stored copy, events and the new copy written.
  values[1 + ((round * 7919) % ROWS)]![3] = `edited ${round}`;
  const edited = read(values);
  changed.push(await time(() => noteTabRead(sheetId, edited, Date.now())));
  // A write through the API to one row: its event and the copy moved on, before the API answers.
  const row = edited.rows[(round * 104729) % ROWS]!;
  const cells = row.cells.map((c, i) => (i === 5 ? `api ${round}` : c));
  apiWrite.push(await time(() => recordApiWrite(sheetId, edited, { updated: { ...row, cells } })));
  values[row.rowNumber - 1] = cells;
  // The next re-read sees the written row as the sheet shows it: the copy settles (untimed).
  await noteTabRead(sheetId, read(values), Date.now());
}
const digestOnly = await time(() => digestOf(JSON.stringify(copyOf(read(values)))));
console.log(`tab ${ROWS} x 10, ${ROUNDS} rounds (min / median / max):`);
console.log(`  parse the re-read values (the read's own work, Google's answer aside): ${fmt(stats(parse))}`);
console.log(
  `  + detection, tab unchanged: ${fmt(stats(unchanged))}  (ratio to parse, medians: ${(stats(unchanged).median / stats(parse).median).toFixed(2)})`,
);
console.log(
  `  + detection, one cell edited (diff, event, copy stored on ${handle.kind}): ${fmt(stats(changed))}  (ratio to parse: ${(stats(changed).median / stats(parse).median).toFixed(2)})`,
);
console.log(
  `  + detection, one row written through the API (its event, copy stored on ${handle.kind}; what the API write waits for): ${fmt(stats(apiWrite))}  (ratio to parse: ${(stats(apiWrite).median / stats(parse).median).toFixed(2)})`,
);
console.log(`  (one digest alone: ${digestOnly.toFixed(1)} ms)`);

// --- Events delivered per second ------------------------------------------------------------------
let received = 0;
const receiver = createServer((req, res) => {
  req.resume();
  req.on("end", () => {
    received++;
    res.writeHead(204).end();
  });
});
await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
await addEndpoint(sheetId, "business", {
  url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/`,
  tabs: ["Small"],
});
await startDelivery();
const small = [["id", "qty"], ...Array.from({ length: EVENTS }, (_, r) => [String(r + 1), "0"])];
await noteTabRead(sheetId, parseTabValues("Small", small), Date.now());
const rates: number[] = [];
for (let round = 0; round < Math.min(ROUNDS, 3); round++) {
  for (const row of small.slice(1)) row[1] = String(round + 1);
  const before = received;
  const started = performance.now();
  await noteTabRead(sheetId, parseTabValues("Small", small), Date.now());
  for (;;) {
    const p = await deliveryProgress(sheetId);
    if (p.pending === 0 && received - before >= EVENTS) break;
    await new Promise((r) => setTimeout(r, 20));
  }
  rates.push(EVENTS / ((performance.now() - started) / 1000));
}
console.log(
  `delivery on ${handle.kind}: ${EVENTS} row.updated events (one per row) per round, 2 workers taking 50 due streams per fetch, receiver answering 204:`,
);
console.log(`  events delivered per second (min / median / max): ${fmt(stats(rates), "events/s")}`);

await stopQueue();
receiver.close();
await handle.close();
