// `npm start` with a build present: time to answer and to a healthy /health, and each process's
// memory once idle (bench/README.md).
//   npx tsx bench/start.ts [--rounds 3]   (build first: `npm start` once)
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { log, processRss, runBench, startService } from "./support";

const { values: args } = parseArgs({ options: { rounds: { type: "string", default: "3" } } });
const PORT = 3650;
const BASE = `http://127.0.0.1:${PORT}`;

const rssMb = (pid: number) =>
  Math.round(Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0) / 1024);

async function until(url: string, started: number): Promise<number> {
  for (;;) {
    try {
      if ((await fetch(url, { signal: AbortSignal.timeout(2000) })).status === 200)
        return (Date.now() - started) / 1000;
    } catch {
      // not listening yet
    }
    if (Date.now() - started > 180_000) throw new Error(`${url} did not answer`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

interface Start {
  first: number;
  healthy: number;
  rss: string;
}

async function once(dir: string, title: string): Promise<Start> {
  log(`npm start: ${title}`);
  const started = Date.now();
  const service = startService(PORT, 4650, dir);
  try {
    const first = await until(`${BASE}/api`, started);
    const healthy = await until(`${BASE}/health`, started);
    await new Promise((r) => setTimeout(r, 10_000));
    const pid = service.process.pid!;
    const tree = [{ name: "launcher", mb: rssMb(pid) }, ...processRss(pid)];
    return { first, healthy, rss: tree.map((p) => `${p.name} ${p.mb} MB`).join(", ") };
  } finally {
    service.stop();
    await new Promise((r) => setTimeout(r, 3000));
  }
}

const spread = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return `${s[0]!.toFixed(1)} / ${s[Math.floor(s.length / 2)]!.toFixed(1)} / ${s.at(-1)!.toFixed(1)} s`;
};

async function main() {
  const dir = mkdtempSync(join(tmpdir(), "sheetapi-start-"));
  const cold = await once(dir, "fresh data directory (migrations from scratch, demo seeded)");
  const warm: Start[] = [];
  for (let round = 1; round <= Number(args.rounds); round++)
    warm.push(await once(dir, `same data directory again, round ${round}`));
  console.log(
    [
      "",
      "| start (from spawning `node lib/cli/start.mjs`) | first answer (GET /api) | healthy (GET /health 200) | idle RSS after 10 s |",
      "|---|---|---|---|",
      `| fresh data directory (migrations from scratch, demo seeded) | ${cold.first.toFixed(1)} s | ${cold.healthy.toFixed(1)} s | ${cold.rss} |`,
      `| same data directory, ${warm.length} starts (min / median / max) | ${spread(warm.map((w) => w.first))} | ${spread(warm.map((w) => w.healthy))} | ${warm.at(-1)!.rss} (last start) |`,
    ].join("\n"),
  );
}

runBench(main);
