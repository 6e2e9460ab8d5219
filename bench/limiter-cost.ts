// The hot-path cost of plan limits: cached-read throughput with the limiter against
// RATE_LIMITS=off, in alternating rounds, embedded and in the production shape (bench/README.md).
//   npx tsx bench/limiter-cost.ts [--duration 10] [--connections 50] [--rounds 2]
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import {
  admin,
  headers,
  load,
  log,
  type Measure,
  productionServices,
  productionServicesReachable,
  rows,
  runBench,
  SHEET,
  startService,
  waitFor,
} from "./support";

const { values: args } = parseArgs({
  options: {
    duration: { type: "string", default: "10" },
    connections: { type: "string", default: "50" },
    rounds: { type: "string", default: "2" },
  },
});
const GOOGLE_PORT = 4620;
const GOOGLE = `http://127.0.0.1:${GOOGLE_PORT}`;
const UPSTASH_PORT = 8091;
const BENCH_DB = "sheetapi_bench";
const opts = { duration: Number(args.duration), connections: Number(args.connections) };

interface Pair {
  name: string;
  on: ReturnType<typeof startService>;
  off: ReturnType<typeof startService>;
}

async function prepare(base: string) {
  await waitFor(`${base}/health`, 240_000);
  await fetch(`${base}/api/${SHEET}/refresh-schema`, { method: "POST", headers });
  for (let i = 0; i < 20; i++) await (await fetch(`${base}/api/v1/${SHEET}/Hundred?limit=100`, { headers })).text();
}

async function main() {
  const stops: (() => void)[] = [];
  try {
    const dir = (name: string) => mkdtempSync(join(tmpdir(), `sheetapi-bench-${name}-`));
    log("embedded pair: in-process store, PGlite");
    const embeddedOn = startService(3620, GOOGLE_PORT, dir("on"));
    stops.push(embeddedOn.stop);
    await waitFor(`${embeddedOn.base}/health`, 240_000);
    await admin(GOOGLE, `/spreadsheets/${SHEET}/tabs`, { title: "Hundred", rows: rows(100, 7) });
    const embeddedOff = startService(3621, GOOGLE_PORT, dir("off"), { RATE_LIMITS: "off" });
    stops.push(embeddedOff.stop);
    const pairs: Pair[] = [{ name: "embedded (in-process store)", on: embeddedOn, off: embeddedOff }];

    if (await productionServicesReachable()) {
      log("production-shape pair: Upstash over the real Redis, the real Postgres, shared by both instances");
      const services = productionServices(BENCH_DB, UPSTASH_PORT);
      stops.push(services.stop);
      const shared = services.env;
      const on = startService(3622, GOOGLE_PORT, dir("pg-on"), shared);
      stops.push(on.stop);
      await waitFor(`${on.base}/health`, 240_000); // it migrates the database; the second must not race it
      const off = startService(3623, GOOGLE_PORT, dir("pg-off"), { ...shared, RATE_LIMITS: "off" });
      stops.push(off.stop);
      pairs.push({ name: "production shape (Upstash over Redis, Postgres)", on, off });
    } else log("Redis or Postgres not reachable: the production-shape pair is skipped");

    for (const p of pairs) for (const s of [p.on, p.off]) await prepare(s.base);

    const lines = ["| store | path | with limiter | without | ratio | target |", "|---|---|---|---|---|---|"];
    for (const p of pairs) {
      for (const [path, title] of [
        ["Hundred?limit=100", "cached GET list, 100 rows"],
        ["Hundred/42", "cached GET one row"],
      ] as const) {
        const on: Measure[] = [];
        const off: Measure[] = [];
        for (let r = 0; r < Number(args.rounds); r++) {
          // Alternate which goes first, so warm-up and drift fall on both sides.
          const order =
            r % 2 === 0
              ? ([
                  ["on", p.on],
                  ["off", p.off],
                ] as const)
              : ([
                  ["off", p.off],
                  ["on", p.on],
                ] as const);
          for (const [which, s] of order)
            (which === "on" ? on : off).push(
              await load(`${p.name}, ${title}, limiter ${which}`, `${s.base}/api/v1/${SHEET}/${path}`, opts),
            );
        }
        const rps = (ms: Measure[]) => Math.round(ms.reduce((a, m) => a + m.rps, 0) / ms.length);
        const p50 = (ms: Measure[]) => Math.max(...ms.map((m) => m.p50));
        const errors = [...on, ...off].reduce((a, m) => a + m.errors, 0);
        lines.push(
          `| ${p.name} | ${title} | ${rps(on)} req/s, p50 ${p50(on)} ms | ${rps(off)} req/s, p50 ${p50(off)} ms | **${(rps(on) / rps(off)).toFixed(2)}**${errors ? ` (${errors} errors)` : ""} | >= 0.8 |`,
        );
      }
    }
    console.log(`\n${lines.join("\n")}\n`);
  } finally {
    for (const stop of stops.reverse()) stop();
  }
}

runBench(main);
