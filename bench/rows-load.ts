// Load benchmark of the rows API against `npm start` with emulators/google, the limiter on with
// raised limits: ratios to the bare route, Google calls, a cold tab, a 100,000-row tab (bench/README.md).
//   npx tsx bench/rows-load.ts [--duration 10] [--connections 50]
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import {
  admin as adminAt,
  headers,
  load as measure,
  log,
  percentile,
  rows,
  runBench,
  serverRss,
  SHEET,
  startService,
  waitFor,
} from "./support";

const { values: args } = parseArgs({
  options: { duration: { type: "string", default: "10" }, connections: { type: "string", default: "50" } },
});
const PORT = 3600;
const GOOGLE = "http://127.0.0.1:4600";
const BASE = `http://127.0.0.1:${PORT}`;
const dir = mkdtempSync(join(tmpdir(), "sheetapi-bench-"));
const bareFile = join(dir, "bare.json");
const admin = (path: string, body?: unknown) => adminAt(GOOGLE, path, body);
const load = (title: string, url: string, extra: { duration?: number } = {}) =>
  measure(title, url, { duration: extra.duration ?? Number(args.duration), connections: Number(args.connections) });

async function main() {
  log(`starting the service (DATA_DIR ${dir})`);
  const service = startService(PORT, 4600, dir, { BENCH_BARE_JSON_FILE: bareFile, SHEETAPI_BENCH_ROUTES: "1" });
  const server = service.process;
  try {
    await waitFor(`${BASE}/health`, 240_000);

    log("adding a 100-row tab and a 100,000-row by 10-column tab to the demo spreadsheet");
    await admin(`/spreadsheets/${SHEET}/tabs`, { title: "Hundred", rows: rows(100, 7) });
    await admin(`/spreadsheets/${SHEET}/tabs`, { title: "Big", rows: rows(100_000, 10) });
    await fetch(`${BASE}/api/${SHEET}/refresh-schema`, { method: "POST", headers });

    const listUrl = `${BASE}/api/v1/${SHEET}/Hundred?limit=100`;
    const listBody = await (await fetch(listUrl, { headers })).text();
    writeFileSync(bareFile, JSON.stringify({ bodies: { list: JSON.parse(listBody) }, headers: {} }));
    log(`list answer: ${listBody.length} bytes`);

    // Warm up every path once.
    await load("warm-up", `${BASE}/api/bench/bare`, { duration: 2 });
    await load("warm-up", listUrl, { duration: 2 });

    const bare = await load("bare route handler, same JSON", `${BASE}/api/bench/bare`);
    const before = await admin("/calls");
    const list = await load("cached GET list of 100 rows", listUrl);
    const one = await load("cached GET one row", `${BASE}/api/v1/${SHEET}/Hundred/42`);
    const after = await admin("/calls");
    const googleReads = (after["values.get"] ?? 0) - (before["values.get"] ?? 0);
    const perThousand = (googleReads / (list.total + one.total)) * 1000;

    log("1,000 concurrent reads of a cold tab");
    await fetch(`${BASE}/api/${SHEET}/refresh-schema`, { method: "POST", headers });
    const coldBefore = (await admin("/calls"))["values.get"] ?? 0;
    const cold = await Promise.all(
      Array.from({ length: 1000 }, () => fetch(listUrl, { headers }).then((r) => r.status)),
    );
    const coldCalls = ((await admin("/calls"))["values.get"] ?? 0) - coldBefore;
    const coldOk = cold.filter((s) => s === 200).length;

    log("100,000-row tab: first read, then warm filter+sort+page");
    const bigUrl = `${BASE}/api/v1/${SHEET}/Big?filter=c2%3E500,c1~text&sort=c4&order=desc&limit=50&offset=10`;
    let started = Date.now();
    const first = await fetch(bigUrl, { headers });
    const coldMs = Date.now() - started;
    const firstBody = (await first.json()) as { meta: { total: number } };
    const samples: number[] = [];
    for (let i = 0; i < 60; i++) {
      started = performance.now();
      const r = await fetch(bigUrl, { headers });
      await r.text();
      if (i >= 10) samples.push(performance.now() - started);
    }
    samples.sort((a, b) => a - b);
    const rss = serverRss(server.pid!);

    const ratio = (x: number) => (x / bare.rps).toFixed(2);
    const lines = [
      `| measure | result | target |`,
      `|---|---|---|`,
      `| bare route handler (same JSON, same build) | ${bare.rps} req/s, p50 ${bare.p50} ms, p99 ${bare.p99} ms | baseline |`,
      `| cached GET list, 100 rows | ${list.rps} req/s (**${ratio(list.rps)}** of bare), p50 ${list.p50} ms, p99 ${list.p99} ms, ${list.errors} errors | >= 0.6 of bare |`,
      `| cached GET one row | ${one.rps} req/s (**${ratio(one.rps)}** of bare), p50 ${one.p50} ms, p99 ${one.p99} ms, ${one.errors} errors | |`,
      `| Google calls per 1,000 cached reads | ${perThousand.toFixed(3)} (${googleReads} calls for ${list.total + one.total} reads) | |`,
      `| 1,000 concurrent reads of a cold tab | ${coldCalls} Google call(s), ${coldOk}/1000 answered 200 | 1 call |`,
      `| 100,000 x 10 tab: first (cold) filtered read | ${coldMs} ms, ${firstBody.meta.total} matches | |`,
      `| 100,000 x 10 tab: warm filter+sort+page | p50 **${percentile(samples, 50).toFixed(1)} ms**, p99 ${percentile(samples, 99).toFixed(1)} ms (50 sequential requests) | p50 < 50 ms |`,
      `| server memory (RSS per process) with the 100,000-row tab cached | ${rss} | |`,
    ];
    console.log(`\n${lines.join("\n")}\n`);
  } finally {
    service.stop();
  }
}

runBench(main);
