// Soak: mixed reads and writes against two instances in the production shape, per minute
// throughput, latency, unexpected answers, memory and Google calls (bench/README.md).
//   npx tsx bench/soak.ts [--minutes 10] [--workers 16] [--write-every-ms 6000]
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import {
  admin,
  headers,
  KEY,
  log,
  percentile,
  processRss,
  productionServices,
  runBench,
  SHEET,
  startService,
  waitFor,
} from "./support";

const { values: args } = parseArgs({
  options: {
    minutes: { type: "string", default: "10" },
    workers: { type: "string", default: "16" },
    "write-every-ms": { type: "string", default: "6000" },
  },
});
const GOOGLE = "http://127.0.0.1:4640";
const DB = "sheetapi_soak";
const UPSTASH_PORT = 8093;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Minute {
  reads: number[];
  writes: number[];
  unexpected: string[];
  googleCalls: number;
  rss: number[];
}

async function main() {
  const services = productionServices(DB, UPSTASH_PORT);
  const shared = { ...services.env, LOG_LEVEL: "warn", RATE_LIMIT_MULTIPLIER: "1000" };
  const dir = (n: string) => mkdtempSync(join(tmpdir(), `sheetapi-soak-${n}-`));
  const a = startService(3640, 4640, dir("a"), shared);
  const stops = [a.stop, services.stop];
  try {
    await waitFor(`${a.base}/health`, 240_000);
    await admin(GOOGLE, `/spreadsheets/${SHEET}/tabs`, { title: "Soak", rows: [["id", "name", "qty", "note"]] });
    const b = startService(3641, 4640, dir("b"), shared);
    stops.push(b.stop);
    await waitFor(`${b.base}/health`, 240_000);
    await fetch(`${a.base}/api/${SHEET}/refresh-schema`, { method: "POST", headers });
    const bases = [a.base, b.base];

    const minutes: Minute[] = [];
    const current = () => minutes[minutes.length - 1]!;
    const started = Date.now();
    const end = started + Number(args.minutes) * 60_000;
    let lastCalls = 0;
    const googleCalls = async () => {
      const c = await admin(GOOGLE, "/calls");
      return Object.entries(c)
        .filter(([k]) => k.startsWith("values.") || k.startsWith("spreadsheets."))
        .reduce((s, [, v]) => s + v, 0);
    };
    const newMinute = async () => {
      const calls = await googleCalls();
      if (minutes.length) current().googleCalls = calls - lastCalls;
      lastCalls = calls;
      if (minutes.length)
        current().rss = [a, b].flatMap((s) =>
          processRss(s.process.pid!)
            .filter((p) => p.name === "next-server")
            .map((p) => p.mb),
        );
      minutes.push({ reads: [], writes: [], unexpected: [], googleCalls: 0, rss: [] });
    };
    await newMinute();

    const READS = [
      "Products?limit=100",
      "Products?filter=price%3E%3D20&sort=price&order=desc&limit=3",
      "Products/2",
      "Team%20Members?select=name&sort=name",
      "Orders?limit=50&offset=1",
      "Orders?typed=true",
    ];
    const readWorker = async (w: number) => {
      const etags = new Map<string, string>();
      for (let i = w; Date.now() < end; i++) {
        const base = bases[i % 2]!;
        const path = READS[i % READS.length]!;
        const conditional = i % 5 === 0 && etags.has(path);
        const t0 = performance.now();
        try {
          const res = await fetch(`${base}/api/v1/${SHEET}/${path}`, {
            headers: { "X-API-Key": KEY, ...(conditional ? { "If-None-Match": etags.get(path)! } : {}) },
          });
          await res.arrayBuffer();
          current().reads.push(performance.now() - t0);
          if (res.headers.get("etag")) etags.set(path, res.headers.get("etag")!);
          if (!(res.status === 200 || (conditional && res.status === 304)))
            current().unexpected.push(`GET ${path} ${res.status}`);
        } catch (err) {
          current().unexpected.push(`GET ${path} ${(err as Error).message}`);
        }
      }
    };
    const writer = async () => {
      const ids: string[] = [];
      for (let i = 0; Date.now() < end; i++) {
        const base = bases[i % 2]!;
        const t0 = performance.now();
        let op = "create";
        let res: Response;
        try {
          if (ids.length > 5 && i % 3 === 2) {
            op = "delete";
            res = await fetch(`${base}/api/v1/${SHEET}/Soak/${ids.shift()}`, { method: "DELETE", headers });
          } else if (ids.length && i % 3 === 1) {
            op = "update";
            res = await fetch(`${base}/api/v1/${SHEET}/Soak/${ids[ids.length - 1]}`, {
              method: "PUT",
              headers: { ...headers, "Content-Type": "application/json" },
              body: JSON.stringify({ qty: i }),
            });
          } else {
            res = await fetch(`${base}/api/v1/${SHEET}/Soak`, {
              method: "POST",
              headers: { ...headers, "Content-Type": "application/json", "Idempotency-Key": `soak-${i}` },
              body: JSON.stringify({ name: `row ${i}`, qty: i, note: "soak" }),
            });
            if (res.status === 201)
              ids.push(((await res.clone().json()) as { data: { rows: { id: string }[] } }).data.rows[0]!.id);
          }
          await res.arrayBuffer();
          current().writes.push(performance.now() - t0);
          if (res.status >= 300) current().unexpected.push(`${op} ${res.status}`);
        } catch (err) {
          current().unexpected.push(`${op} ${(err as Error).message}`);
        }
        await sleep(Number(args["write-every-ms"]));
      }
    };
    const ticker = (async () => {
      while (Date.now() < end) {
        await sleep(Math.min(60_000 - ((Date.now() - started) % 60_000), end - Date.now()));
        if (Date.now() < end - 1000) {
          await newMinute();
          const m = minutes[minutes.length - 2]!;
          log(
            `minute ${minutes.length - 1}: ${m.reads.length} reads, ${m.writes.length} writes, ${m.unexpected.length} unexpected, ${m.googleCalls} Google calls, RSS ${m.rss.join(" / ")} MB`,
          );
        }
      }
    })();
    await Promise.all([...Array.from({ length: Number(args.workers) }, (_, w) => readWorker(w)), writer(), ticker]);
    await newMinute();
    minutes.pop();

    const row = (m: Minute, i: number) => {
      const r = [...m.reads].sort((x, y) => x - y);
      const w = [...m.writes].sort((x, y) => x - y);
      return `| ${i + 1} | ${Math.round(m.reads.length / 60)} | ${percentile(r, 50).toFixed(1)} / ${percentile(r, 99).toFixed(1)} | ${m.writes.length} | ${percentile(w, 50).toFixed(0)} / ${percentile(w, 99).toFixed(0)} | ${m.unexpected.length} | ${m.googleCalls} | ${m.rss.join(" / ")} |`;
    };
    const all = minutes.flatMap((m) => m.unexpected);
    const first = minutes[0]!.rss;
    const last = minutes[minutes.length - 1]!.rss;
    console.log(
      `\n| minute | reads/s | read p50 / p99 ms | writes | write p50 / p99 ms | unexpected | Google calls | RSS a / b MB |\n|---|---|---|---|---|---|---|---|\n${minutes.map(row).join("\n")}\n`,
    );
    console.log(
      `total: ${minutes.reduce((s, m) => s + m.reads.length, 0)} reads, ${minutes.reduce((s, m) => s + m.writes.length, 0)} writes, ${all.length} unexpected${all.length ? ` (${[...new Set(all)].slice(0, 5).join("; ")})` : ""}`,
    );
    console.log(
      `memory growth, minute 1 to minute ${minutes.length}: ${first.map((mb, i) => `${mb} -> ${last[i]} MB`).join(", ")}`,
    );
    console.log(`Google calls by kind over the run: ${JSON.stringify(await admin(GOOGLE, "/calls"))}`);
  } finally {
    for (const stop of stops.reverse()) stop();
  }
}

runBench(main);
