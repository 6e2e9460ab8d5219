// What the benchmarks share: starting `npm start` instances, waiting for them, the emulator's
// admin API, generated tabs and one autocannon measure.
import { execSync, spawn, spawnSync, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { openSync, readFileSync, writeFileSync } from "node:fs";
import { Socket } from "node:net";
import autocannon from "autocannon";

// A new key each run: a shared Redis may still hold the record of an earlier run's key, made
// for a database that has since been dropped.
export const KEY = `shk_bench${randomBytes(24)
  .toString("base64")
  .replace(/[^A-Za-z0-9]/g, "")
  .slice(0, 30)
  .padEnd(30, "0")}`;
export const SHEET = "1AcmeStoreDemoSpreadsheet0000000000000000001";
export const headers = { "X-API-Key": KEY };
export const log = (line: string) => console.log(`▸ ${line}`);

export async function waitFor(url: string, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not yet
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`${url} did not come up`);
}

/**
 * `npm start` on embedded defaults plus `env`, as its own process group; stop() ends the group.
 * `production`: run as a deployment does (NODE_ENV=production, on embedded defaults where `env`
 * names no services), its JSON log lines written to `<dataDir>.log` as a log collector would
 * take them, instead of the development output the launcher formats line by line.
 */
export function startService(
  port: number,
  googlePort: number,
  dataDir: string,
  env: Record<string, string> = {},
  { production = false } = {},
): { base: string; process: ChildProcess; stop: () => void } {
  const logFile = production ? openSync(`${dataDir}.log`, "a") : undefined;
  const child = spawn(process.execPath, ["lib/cli/start.mjs"], {
    env: {
      ...process.env,
      PORT: String(port),
      GOOGLE_EMULATOR_PORT: String(googlePort),
      DATA_DIR: dataDir,
      DEMO_MODE: "1",
      DEMO_API_KEY: KEY,
      // Limits raised so that the load itself is never refused; the limiter still runs.
      RATE_LIMIT_MULTIPLIER: "100000",
      NODE_ENV: production ? "production" : "development",
      // Payment is on no measured path, and production refuses to start without its settings.
      ...(production ? { ALLOW_EMBEDDED: "true", BILLING: "off" } : {}),
      DATABASE_URL: "",
      UPSTASH_REDIS_REST_URL: "",
      ...env,
    },
    stdio: ["ignore", logFile ?? "inherit", "inherit"],
    detached: true,
  });
  return {
    base: `http://127.0.0.1:${port}`,
    process: child,
    stop: () => {
      try {
        process.kill(-child.pid!, "SIGTERM");
      } catch {
        // already gone
      }
    },
  };
}

export const admin = async (googleUrl: string, path: string, body?: unknown) =>
  (
    await fetch(`${googleUrl}/__admin${path}`, {
      method: body ? "POST" : "GET",
      headers: { "content-type": "application/json" },
      body: body ? JSON.stringify(body) : undefined,
    })
  ).json() as Promise<Record<string, number>>;

/** A header row (`id`, c1, c2...) and `n` rows of mixed text and numbers. */
export function rows(n: number, width: number) {
  const header = ["id", ...Array.from({ length: width - 1 }, (_, i) => `c${i + 1}`)];
  const data = Array.from({ length: n }, (_, r) => [
    r + 1,
    ...Array.from({ length: width - 1 }, (_, c) =>
      c % 3 === 0 ? `text ${(r * 7 + c) % 997}` : (r * 31 + c * 17) % 1000,
    ),
  ]);
  return [header, ...data];
}

export interface Measure {
  title: string;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  total: number;
}

export async function load(
  title: string,
  url: string,
  options: { duration: number; connections: number },
): Promise<Measure> {
  const result = await autocannon({ url, headers, ...options });
  const summary = {
    title,
    rps: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts + result.non2xx,
    total: result.requests.total,
  };
  log(
    `${title}: ${summary.rps} req/s, p50 ${summary.p50} ms, p99 ${summary.p99} ms, ${summary.errors} errors of ${summary.total}`,
  );
  return summary;
}

export function descendants(pid: number): number[] {
  let children: number[] = [];
  try {
    children = execSync(`pgrep -P ${pid}`).toString().trim().split("\n").map(Number);
  } catch {
    // no children
  }
  return children.flatMap((c) => [c, ...descendants(c)]);
}

/** RSS in MB of a launcher's descendant processes, by name (the Next.js server is `next-server`). */
export function processRss(launcherPid: number): { name: string; mb: number }[] {
  return descendants(launcherPid).flatMap((pid) => {
    try {
      const status = readFileSync(`/proc/${pid}/status`, "utf8");
      return [
        {
          name: /Name:\s+(\S+)/.exec(status)?.[1] ?? "?",
          mb: Math.round(Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024),
        },
      ];
    } catch {
      return [];
    }
  });
}

/** Memory of the Next.js server processes, as text. */
export const serverRss = (launcherPid: number) =>
  processRss(launcherPid)
    .map((p) => `${p.name} ${p.mb} MB`)
    .join(", ");

/** CPU time (user + system) used so far by these processes, in ms (from /proc; 0 for a process gone). */
export function cpuMs(pids: number[]): number {
  let ticks = 0;
  for (const pid of pids) {
    try {
      // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
      const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // gone
    }
  }
  return ticks * 10; // USER_HZ is 100 on Linux
}

export function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

/** Runs a benchmark's main and exits with its outcome (servers it started are its to stop). */
export function runBench(main: () => Promise<void>): void {
  main().then(
    () => process.exit(0),
    (err) => {
      console.error(err);
      process.exit(1);
    },
  );
}

const listening = (port: number) =>
  new Promise<boolean>((resolve) => {
    const s = new Socket();
    s.setTimeout(500, () => (s.destroy(), resolve(false)));
    s.once("error", () => resolve(false));
    s.connect(port, "127.0.0.1", () => (s.destroy(), resolve(true)));
  });

/** Whether the real Redis and Postgres the production shape runs on answer on loopback. */
export const productionServicesReachable = async () => (await listening(6379)) && (await listening(5432));

/**
 * The production shape's shared services: a fresh database on the real Postgres and
 * emulators/upstash over the real Redis. Returns the environment both instances need and how
 * to stop the bridge.
 */
export function productionServices(
  database: string,
  upstashPort: number,
): { env: Record<string, string>; stop: () => void; bridgePid: number } {
  const psql = (sql: string) => spawnSync("psql", ["-h", "127.0.0.1", "-U", "postgres", "-d", "postgres", "-qc", sql]);
  psql(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
  psql(`CREATE DATABASE ${database}`);
  const token = `bench-${database}`;
  const bridge = spawn(
    process.execPath,
    ["--import", "tsx", "emulators/upstash/main.ts", "--port", String(upstashPort), "--token", token],
    { stdio: "ignore", detached: true },
  );
  return {
    env: {
      DATABASE_URL: `postgres://postgres@127.0.0.1:5432/${database}`,
      UPSTASH_REDIS_REST_URL: `http://127.0.0.1:${upstashPort}`,
      UPSTASH_REDIS_REST_TOKEN: token,
    },
    stop: () => process.kill(-bridge.pid!, "SIGTERM"),
    bridgePid: bridge.pid!,
  };
}

// Headers Next.js and Node set on every answer, the bare route's too: not replayed.
const EVERY_ANSWER = new Set([
  "date",
  "connection",
  "keep-alive",
  "transfer-encoding",
  "content-length",
  "content-type",
  "vary",
  "content-security-policy",
  "x-content-type-options",
  "x-frame-options",
  "referrer-policy",
  "permissions-policy",
  "cross-origin-opener-policy",
  "strict-transport-security",
]);

/**
 * Saves the rows API's own answers (`paths` by name) and the headers it set on them for the bare
 * routes (app/api/bench/bare, BENCH_BARE_JSON_FILE): byte for byte the same JSON.
 */
export async function saveBareAnswers(
  base: string,
  paths: readonly { name: string; path: string }[],
  file: string,
): Promise<{ bodies: Record<string, unknown>; headers: Record<string, Record<string, string>> }> {
  const bodies: Record<string, unknown> = {};
  const answerHeaders: Record<string, Record<string, string>> = {};
  for (const p of paths) {
    const res = await fetch(`${base}/api/v1/${SHEET}/${p.path}`, { headers });
    bodies[p.name] = await res.json();
    answerHeaders[p.name] = Object.fromEntries([...res.headers].filter(([name]) => !EVERY_ANSWER.has(name)));
  }
  writeFileSync(file, JSON.stringify({ bodies, headers: answerHeaders }));
  return { bodies, headers: answerHeaders };
}
