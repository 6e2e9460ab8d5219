// The start command (`npm start`): checks the configuration, starts what embedded mode needs
// (emulators/google), applies migrations, seeds the demo account, builds when needed and runs
// `next start`. `--dev` runs `next dev` instead of a production build.
import { spawn } from "node:child_process";
import { resolve } from "node:path";
import { openDatabase, setDatabase } from "@/db/client";
import { describeDatabaseError, migrateDatabase } from "@/db/migrate";
import { seedDemo, type DemoAccount } from "@/lib/accounts/demo";
import { ConfigError, loadConfig, type AppConfig } from "@/lib/env";
import { ensureGoogleEmulator } from "./embedded-google";
import { buildIsStale, nextBin, runNextBuild } from "./next-build";

const root = resolve(import.meta.dirname, "..", "..");
const dev = process.argv.includes("--dev");
const step = (text: string) => console.log(`▸ ${text}`);

function fail(message: string): never {
  console.error(`✗ ${message}`);
  process.exit(1);
}

async function prepareDatabase(cfg: AppConfig): Promise<DemoAccount | undefined> {
  const target = cfg.database.kind === "postgres" ? cfg.database.url : cfg.database.dir;
  const handle = openDatabase(cfg.database);
  try {
    const started = Date.now();
    await migrateDatabase(handle);
    step(`Database ready (${handle.kind}, migrations applied in ${Date.now() - started} ms)`);
    if (!cfg.demo.enabled) return undefined;
    setDatabase(handle);
    return await seedDemo(cfg);
  } catch (err) {
    fail(describeDatabaseError(err, target));
  } finally {
    // PGlite allows one process at a time: release it before the server opens it.
    await handle.close();
  }
}

async function waitForHealth(url: string, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      const res = await fetch(`${url}/health`, { signal: AbortSignal.timeout(2000) });
      if (res.status === 200) return true;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  return false;
}

function printReady(appUrl: string, demo?: DemoAccount) {
  console.log(`\n✓ SheetAPI is running at ${appUrl}  (health: ${appUrl}/health, API info: ${appUrl}/api)`);
  if (!demo) return;
  const rows = `${appUrl}/api/v1/${demo.sheetId}/${encodeURIComponent(demo.tab)}`;
  console.log(`  Demo sheet:   ${demo.sheetId}`);
  console.log(`  Demo API key: ${demo.apiKey}`);
  console.log(`  Try:          curl -H "X-API-Key: ${demo.apiKey}" ${rows}\n`);
}

async function main() {
  let cfg: AppConfig;
  try {
    cfg = loadConfig();
  } catch (err) {
    fail(err instanceof ConfigError ? err.message : String(err));
  }
  const embeddedGoogle = cfg.google.emulated && !cfg.env.GOOGLE_API_ROOT_URL;
  step(`Configuration: database ${cfg.database.kind}, limit store ${cfg.limitStore.kind}, Google ${cfg.google.emulated ? "emulated" : "live"}`);

  const google = embeddedGoogle ? await ensureGoogleEmulator(cfg).catch((err: Error) => fail(err.message)) : undefined;
  if (google) step(`emulators/google on ${google.url}`);

  const demo = await prepareDatabase(cfg);
  const port = String(cfg.env.PORT);
  const host = cfg.env.HOST ?? (cfg.production ? "0.0.0.0" : "127.0.0.1");
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NEXT_TELEMETRY_DISABLED: "1",
    DATA_DIR: cfg.dataDir,
    AUTH_URL: cfg.appUrl,
    // `next start` always runs with NODE_ENV=production; what was allowed here stays allowed there.
    ...(cfg.production ? {} : { ALLOW_EMBEDDED: "1" }),
    ...(google ? { GOOGLE_API_ROOT_URL: google.url } : {}),
  };
  // Next sets NODE_ENV itself; an inherited "development" breaks `next build` prerendering.
  Reflect.deleteProperty(env, "NODE_ENV");

  if (!dev && buildIsStale(root)) {
    step("Building the app (first start or sources changed)…");
    await runNextBuild(root, env).catch((err: Error) => fail(err.message));
  }
  step(`Starting the server on ${host}:${port}${dev ? " (development mode)" : ""}…`);
  const server = spawn(process.execPath, [nextBin, dev ? "dev" : "start", "-p", port, "-H", host], { cwd: root, env, stdio: "inherit" });

  let stopping = false;
  const stop = async (code: number) => {
    if (stopping) return;
    stopping = true;
    if (server.exitCode === null) server.kill("SIGTERM");
    await google?.stop();
    process.exit(code);
  };
  server.once("exit", (code) => void stop(code ?? 0));
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => void stop(0));

  const local = `http://127.0.0.1:${port}`;
  if (await waitForHealth(local, 120_000)) printReady(cfg.appUrl, demo);
  else console.error(`! ${local}/health did not answer 200 within 120 s; see the server output above.`);
}

void main();
