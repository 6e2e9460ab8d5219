// `npm start` (and `npm run dev` with --dev): the launcher. Plain JavaScript with only Node's own
// modules, since it stays alive as the server's parent; the work runs in processes that end (README.md).
import { spawn } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { setPriority } from "node:os";
import { get, request } from "node:http";
import { createInterface } from "node:readline";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { freshBuildTime } from "./build-state.mjs";
import { cachedPlan, samePlan } from "./start-plan-cache.mjs";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
const args = process.argv.slice(2);
const children = new Set();
let stopping = false;
/** The server's own drain bound (lib/env.ts, SHUTDOWN_DRAIN_MS) and time to write and close. */
const STOP_BOUND_MS = (Number(process.env.SHUTDOWN_DRAIN_MS) || 60_000) + 15_000;

function run(args, options) {
  const child = spawn(process.execPath, args, { cwd: root, ...options });
  children.add(child);
  child.once("exit", () => children.delete(child));
  // Started by a step that was under way when the launcher began to stop: it stops too.
  if (stopping) child.kill("SIGTERM");
  return child;
}

function stop(code) {
  if (stopping) return;
  stopping = true;
  for (const child of children) if (child.exitCode === null) child.kill("SIGTERM");
  // The server finishes the requests under way (up to SHUTDOWN_DRAIN_MS) and writes its batches
  // before it exits; what is still running well after that is killed, so nothing the launcher
  // started outlives it.
  const deadline = setTimeout(() => {
    for (const child of children) if (child.exitCode === null) child.kill("SIGKILL");
    process.exit(code);
  }, STOP_BOUND_MS);
  deadline.unref();
  const wait = () => (children.size === 0 ? process.exit(code) : setTimeout(wait, 50));
  wait();
}

for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => stop(0));

/**
 * Runs lib/cli/prepare.ts: `planned` resolves with its plan as soon as it sends it (the server can
 * start) and a promise of the banner (sent once the database is ready); stops everything, with its
 * code, when it fails.
 */
function prepare() {
  let child;
  const planned = new Promise((done) => {
    let finished = false;
    let bannerReady;
    const banner = new Promise((r) => (bannerReady = r));
    child = run(["--import", "tsx", "lib/cli/prepare.ts", ...args], {
      stdio: ["inherit", "inherit", "inherit", "ipc"],
    });
    child.on("message", (message) => {
      if (!message.banner) return done({ plan: message, banner });
      finished = true;
      bannerReady(message.banner);
    });
    child.once("exit", (code) => (finished && code === 0 ? undefined : stop(code || 1)));
  });
  return { child, planned };
}

/** The server, from a plan: the launcher's environment with the plan's changes. */
function startServer(plan) {
  const env = { ...process.env, ...plan.server.envSet };
  for (const name of plan.server.envUnset) delete env[name];
  const server = run(plan.server.args, { env, stdio: plan.production ? "inherit" : ["inherit", "pipe", "pipe"] });
  if (!plan.production) {
    readable(server.stdout, process.stdout);
    readable(server.stderr, process.stderr);
  }
  server.once("exit", (code) => server.replaced || stop(code ?? 0));
  return server;
}

/** Stops a server started from a kept plan that this start's own plan does not confirm. */
function replace(server) {
  server.replaced = true;
  server.kill("SIGTERM");
  return new Promise((done) => (server.exitCode === null ? server.once("exit", done) : done()));
}

/** The status of a GET, or 0 when nothing answers (node:http rather than fetch: undici alone is ~10 MB). */
function status(url) {
  const route = new URL(url).pathname;
  // Counted when sent: a poll that timed out here may still be answered and logged there.
  noteOwnRequest(route, 1);
  return new Promise((done) => {
    const req = get(url, { timeout: 2000 }, (res) => {
      res.resume();
      done(res.statusCode ?? 0);
    });
    req.once("timeout", () => req.destroy());
    req.once("error", (err) => {
      // Refused: it never reached the server, so no line will come for it.
      if (err.code === "ECONNREFUSED") noteOwnRequest(route, -1);
      done(0);
    });
  });
}

const answers = async (url, ok = (code) => code >= 200 && code < 300) => ok(await status(url));

async function waitFor(url, ms, ok) {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline && !stopping) {
    if (await answers(url, ok)) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return false;
}

/** POSTs JSON; resolves with the status (0 when nothing answers). */
function postJson(url, body) {
  return new Promise((done) => {
    const data = JSON.stringify(body);
    const req = request(
      url,
      {
        method: "POST",
        timeout: 5000,
        headers: { "content-type": "application/json", "content-length": Buffer.byteLength(data) },
      },
      (res) => {
        res.resume();
        done(res.statusCode ?? 0);
      },
    );
    req.once("timeout", () => req.destroy());
    req.once("error", () => done(0));
    req.end(data);
  });
}

/** This instance's service-account keys, uploaded to the emulator (a reused one too: each DATA_DIR has its own key). */
async function uploadServiceAccountKey(emulator) {
  for (const key of emulator.serviceAccountKeys) {
    const code = await postJson(`${emulator.url}/__admin/service-account-keys`, key);
    if (code < 200 || code >= 300) {
      console.error(`✗ emulators/google refused the key of ${key.email} (HTTP ${code}).`);
      stop(1);
    }
  }
}

/** emulators/google in its own process, or the one already listening on the port (a second local instance, a test run). */
async function ensureEmulator(emulator) {
  const health = `${emulator.url}/__admin/health`;
  if (await answers(health)) {
    await uploadServiceAccountKey(emulator);
    return console.log(`▸ emulators/google already running on ${emulator.url}`);
  }
  run(
    [
      "--import",
      "tsx",
      "emulators/google/main.ts",
      "--port",
      String(emulator.port),
      "--data",
      emulator.dataFile,
      "--service-account",
      emulator.serviceAccountEmail,
    ],
    { stdio: ["ignore", "ignore", "inherit"] },
  ).once(
    "exit",
    (code) =>
      !stopping &&
      (console.error(`✗ emulators/google stopped (exit code ${code}). Set GOOGLE_EMULATOR_PORT to a free port.`),
      stop(1)),
  );
  if (!(await waitFor(health, 30_000))) {
    console.error(`✗ Cannot start emulators/google on port ${emulator.port}. Set GOOGLE_EMULATOR_PORT to a free port.`);
    return stop(1);
  }
  await uploadServiceAccountKey(emulator);
  console.log(`▸ emulators/google on ${emulator.url}`);
}

/**
 * On a laptop the server's JSON request lines become one short line each, and the launcher's own
 * health checks are left out, so the ready banner is the last thing printed at start. In
 * production the JSON goes out as it is, for log collectors.
 */
function readable(stream, out) {
  createInterface({ input: stream }).on("line", (line) => {
    if (!line.startsWith("{")) return out.write(`${line}\n`);
    try {
      const entry = JSON.parse(line);
      if (entry.msg !== "request")
        return out.write(`${entry.level ?? "info"}: ${entry.msg}${entry.err ? ` (${entry.err.message})` : ""}\n`);
      // The launcher's own polling until the server is ready: every line before the banner, and
      // after it the lines of the polls it sent (they may come once it is printed).
      if (OWN_ROUTES.includes(entry.route) && (!banner.printed || (ownRequests.get(entry.route) ?? 0) > 0))
        return noteOwnRequest(entry.route, -1);
      out.write(`  ${entry.method} ${entry.route} ${entry.status} ${Math.round(entry.duration_ms)} ms\n`);
    } catch {
      out.write(`${line}\n`);
    }
  });
}

const banner = { printed: false };

/** The launcher's own requests to the server not logged yet: sent (+1), logged or refused (-1); never below 0. */
const OWN_ROUTES = ["/health", "/api"];
const ownRequests = new Map();
function noteOwnRequest(route, step) {
  if (OWN_ROUTES.includes(route)) ownRequests.set(route, Math.max(0, (ownRequests.get(route) ?? 0) + step));
}

async function main() {
  const started = Date.now();
  const preparation = prepare();
  // Started again with the configuration and build of the last start: the server starts from
  // that start's plan now, and the preparation (configuration, build check, migrations) runs
  // beside it at a lower priority, so the first answers get the CPU (start-plan-cache.mjs).
  const kept = args.includes("--dev")
    ? undefined
    : cachedPlan(root, process.env, args, freshBuildTime(root, process.env));
  let server;
  if (kept) {
    mkdirSync(dirname(kept.gate), { recursive: true });
    writeFileSync(kept.gate, String(preparation.child.pid));
    console.log("▸ Starting the server as last time, while its settings, build and database are checked…");
    server = startServer(kept);
    try {
      setPriority(preparation.child.pid, 10);
    } catch {
      // not permitted here: it only runs at the same priority
    }
  }
  const { plan, banner: bannerLines } = await preparation.planned;
  if (server && (plan.built || !samePlan(plan, kept))) {
    await replace(server);
    server = undefined;
  }
  if (stopping) return;
  const serverStarted = server ? started : Date.now();
  server ??= startServer(plan);

  const firstAnswer = waitFor(`${plan.server.localUrl}/api`, 120_000).then(() => Date.now());
  // The server needs Google only for requests: the emulator starts beside it, or, when the
  // server started early, once it has answered (its start would take the first answer's CPU).
  const emulator = plan.emulator
    ? (kept ? firstAnswer : Promise.resolve()).then(() => stopping || ensureEmulator(plan.emulator))
    : Promise.resolve();
  await emulator;
  const lines = await bannerLines;
  if (await waitFor(`${plan.server.localUrl}/health`, 120_000, (code) => code === 200)) {
    banner.printed = true;
    const seconds = (at) => ((at - serverStarted) / 1000).toFixed(1);
    const now = Date.now();
    console.log(
      `\n${lines.join("\n")}\n  (first answer ${seconds(await firstAnswer)} s and healthy ${seconds(now)} s after the server started; ${((now - started) / 1000).toFixed(1)} s after npm start)\n`,
    );
  } else if (!stopping) {
    console.error(`! ${plan.server.localUrl}/health did not answer 200 within 120 s; see the server output above.`);
  }
}

void main();
