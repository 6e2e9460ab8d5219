// `npm start` with a build present: how long until the server answers (GET /api) and is healthy
// (GET /health 200: database, limit store and Google reachable), and what each process holds in
// memory once idle: the launcher that stays beside the server, next-server and emulators/google.
//   npx tsx bench/start.ts   (build first: `npm start` once)
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { log, processRss, runBench, startService } from "./support";

const PORT = 3650;
const BASE = `http://127.0.0.1:${PORT}`;

const rssMb = (pid: number) => Math.round(Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0) / 1024);

async function until(url: string, started: number): Promise<number> {
  for (;;) {
    try {
      if ((await fetch(url, { signal: AbortSignal.timeout(2000) })).status === 200) return (Date.now() - started) / 1000;
    } catch {
      // not listening yet
    }
    if (Date.now() - started > 180_000) throw new Error(`${url} did not answer`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function once(dir: string, title: string): Promise<string> {
  log(`npm start: ${title}`);
  const started = Date.now();
  const service = startService(PORT, 4650, dir);
  try {
    const first = await until(`${BASE}/api`, started);
    const healthy = await until(`${BASE}/health`, started);
    await new Promise((r) => setTimeout(r, 10_000));
    const pid = service.process.pid!;
    const tree = [{ name: "launcher", mb: rssMb(pid) }, ...processRss(pid)];
    return `| ${title} | ${first.toFixed(1)} s | ${healthy.toFixed(1)} s | ${tree.map((p) => `${p.name} ${p.mb} MB`).join(", ")} |`;
  } finally {
    service.stop();
    await new Promise((r) => setTimeout(r, 3000));
  }
}

async function main() {
  const dir = mkdtempSync(join(tmpdir(), "sheetapi-start-"));
  const cold = await once(dir, "fresh data directory (migrations from scratch, demo seeded)");
  const warm = await once(dir, "same data directory again (nothing to migrate)");
  console.log(["", "| start (from spawning `node lib/cli/start.mjs`) | first answer (GET /api) | healthy (GET /health 200) | idle RSS after 10 s |", "|---|---|---|---|", cold, warm].join("\n"));
}

runBench(main);
