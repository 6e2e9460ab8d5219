// What writing each answer's usage to PGlite before the answer is sent would cost, against the
// embedded defaults' batches (bench/README.md).
//   npx tsx bench/embedded-usage-write.ts [--writes 2000] [--concurrency 50]
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { openDatabase, setDatabase } from "@/db/client";
import { migrateDatabase } from "@/db/migrator";
import { addUsage } from "@/db/queries/usage";
import { createUser } from "@/db/queries/users";

const { values: args } = parseArgs({
  options: { writes: { type: "string", default: "2000" }, concurrency: { type: "string", default: "50" } },
});
const WRITES = Number(args.writes);
const CONCURRENCY = Number(args.concurrency);

async function measure(title: string, counts: number, run: () => Promise<void>): Promise<void> {
  const cpu = process.cpuUsage();
  const started = performance.now();
  await run();
  const wallMs = performance.now() - started;
  const used = process.cpuUsage(cpu);
  const cpuUs = (used.user + used.system) / counts;
  console.log(
    `| ${title} | ${counts} | ${((wallMs * 1000) / counts).toFixed(0)} µs | ${cpuUs.toFixed(0)} µs | ${Math.round(counts / (wallMs / 1000))} counts/s |`,
  );
}

async function main() {
  const dir = mkdtempSync(join(tmpdir(), "sheetapi-usage-write-"));
  const handle = openDatabase({ kind: "pglite", dir: join(dir, "pglite") });
  try {
    await migrateDatabase(handle);
    setDatabase(handle);
    const user = await createUser({ email: "bench@example.com" });
    const day = new Date().toISOString().slice(0, 10);
    const row = (key: number) => ({
      userId: user.id,
      sheetId: "bench-sheet",
      keyId: `key-${key % 4}`,
      day,
      statusClass: "2xx",
      count: 1,
    });
    // Warm up: the statement's first run parses and plans it.
    for (let i = 0; i < 50; i++) await addUsage([row(i)]);

    console.log("| how each answer's count is written | counts | wall time per count | CPU per count | throughput |");
    console.log("|---|---|---|---|---|");
    await measure("one write per answer, one at a time", WRITES, async () => {
      for (let i = 0; i < WRITES; i++) await addUsage([row(i)]);
    });
    await measure(`one write per answer, ${CONCURRENCY} answers at once`, WRITES, async () => {
      for (let i = 0; i < WRITES; i += CONCURRENCY)
        await Promise.all(Array.from({ length: Math.min(CONCURRENCY, WRITES - i) }, (_, j) => addUsage([row(i + j)])));
    });
    // What the batch does: the counts of USAGE_FLUSH_MS summed per account, sheet, key, day and
    // class in memory, then one statement (here 4 keys' rows).
    await measure("in memory, one batch write (embedded defaults)", WRITES, async () => {
      const sums = new Map<string, ReturnType<typeof row>>();
      for (let i = 0; i < WRITES; i++) {
        const r = row(i);
        const same = sums.get(r.keyId);
        if (same) same.count++;
        else sums.set(r.keyId, r);
      }
      await addUsage([...sums.values()]);
    });
  } finally {
    await handle.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
