// What an answer's ledger entry costs the limit store's path: one HINCRBY against the one EVALSHA
// each answer now writes, over emulators/upstash (bench/README.md).
//   npx tsx bench/ledger-entry-cost.ts [--calls 4000] [--concurrency 50] [--rounds 3] [--port 3689]
import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { parseArgs } from "node:util";
import { upstashStore } from "@/lib/store/store";
import { upstashRedis } from "@/lib/store/upstash-requester";
import { lastUsedField, sheetStatField, usageField } from "@/lib/usage/ledger-fields";
import { cpuMs } from "./support";

const { values: args } = parseArgs({
  options: {
    calls: { type: "string", default: "4000" },
    concurrency: { type: "string", default: "50" },
    rounds: { type: "string", default: "3" },
    port: { type: "string", default: "3689" },
  },
});
const CALLS = Number(args.calls);
const CONCURRENCY = Number(args.concurrency);
const token = `bench-${randomUUID()}`;
const scope = `bench-${randomUUID()}`;
const url = `http://127.0.0.1:${args.port}`;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function main() {
  const bridge = spawn(
    process.execPath,
    ["--import", "tsx", "emulators/upstash/main.ts", "--port", String(args.port), "--token", token],
    { stdio: "ignore", detached: true },
  );
  try {
    const redis = upstashRedis({ url, token, timeoutMs: 5_000 });
    for (
      let tries = 0;
      await redis.ping().then(
        () => false,
        () => tries++ < 60,
      );

    )
      await new Promise((r) => setTimeout(r, 500));
    const store = upstashStore(redis);
    const day = new Date().toISOString().slice(0, 10);
    const key = (i: number) => ({
      userId: "bench-user",
      sheetId: "bench-sheet",
      keyId: `key-${i % 4}`,
      day,
      statusClass: "2xx",
    });
    const sides = {
      "usage count alone: HINCRBY (before)": (i: number) =>
        redis.hincrby(`sheetapi:usage:${scope}:ledger`, usageField(key(i)), 1),
      "ledger entry: usage + sheet stat + last use, one EVALSHA (now)": (i: number) =>
        store.ledger!.add(scope, {
          counts: [
            [usageField(key(i)), 1],
            [sheetStatField("bench-sheet", day, "cacheHits"), 1],
          ],
          latest: [[lastUsedField(key(i).keyId), Date.now()]],
        }),
    };
    const results = new Map<string, { wall: number[]; client: number[]; bridge: number[] }>();
    for (const side of Object.keys(sides)) results.set(side, { wall: [], client: [], bridge: [] });
    for (const call of Object.values(sides)) for (let i = 0; i < 200; i++) await call(i); // warm-up
    for (let round = 0; round < Number(args.rounds); round++) {
      const order = round % 2 ? Object.entries(sides).reverse() : Object.entries(sides);
      for (const [side, call] of order) {
        const cpu = process.cpuUsage();
        const bridgeBefore = cpuMs([bridge.pid!]);
        const started = performance.now();
        for (let i = 0; i < CALLS; i += CONCURRENCY)
          await Promise.all(Array.from({ length: Math.min(CONCURRENCY, CALLS - i) }, (_, j) => call(i + j)));
        const r = results.get(side)!;
        r.wall.push(((performance.now() - started) * 1000) / CALLS);
        const used = process.cpuUsage(cpu);
        r.client.push((used.user + used.system) / CALLS);
        r.bridge.push(((cpuMs([bridge.pid!]) - bridgeBefore) * 1000) / CALLS);
      }
    }
    console.log(
      `| store call per answer (${CALLS} calls, ${CONCURRENCY} at once, median of ${args.rounds} rounds) | wall time per call | CPU per call, the service's process | CPU per call, emulators/upstash |`,
    );
    console.log("|---|---|---|---|");
    for (const [side, r] of results)
      console.log(
        `| ${side} | ${median(r.wall).toFixed(0)} µs | ${median(r.client).toFixed(0)} µs | ${median(r.bridge).toFixed(0)} µs |`,
      );
    await redis.del(`sheetapi:usage:${scope}:ledger`);
  } finally {
    process.kill(-bridge.pid!, "SIGTERM");
  }
}

await main();
