// The work `npm start` does before the server runs, in a process of its own that exits when done
// (so the database engine, the build and this module graph do not stay in memory beside the
// server): checks the configuration, applies the migrations, seeds the demo account, builds the
// app when needed, and hands the launcher (start.mjs) what to run and what to print.
import { createPublicKey } from "node:crypto";
import { resolve } from "node:path";
import { openDatabase, setDatabase } from "@/db/client";
import { describeDatabaseError, migrateDatabase } from "@/db/migrate";
import { subjectOf } from "@/emulators/google/subject";
import { DEMO_EMAIL, seedDemo, type DemoAccount } from "@/lib/accounts/demo";
import { ConfigError, loadConfig, type AppConfig } from "@/lib/env";
import { buildIsStale, nextBin, runNextBuild } from "./next-build";

/** What the launcher needs; sent over IPC. */
export interface StartPlan {
  production: boolean;
  /** emulators/google to run (or reuse) on loopback, when Google is embedded. */
  emulator?: { port: number; url: string; dataFile: string; serviceAccountEmail: string; serviceAccountPublicKey: string };
  server: { command: string; args: string[]; env: NodeJS.ProcessEnv; localUrl: string };
  /** Printed once the server answers, last, so nothing buries it. */
  banner: string[];
}

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
    // On the emulator anyone can sign in as any address: link the demo account to the address
    // the banner names, so the demo can be seen in the dashboard too.
    return await seedDemo(cfg, { googleSubject: cfg.google.emulated ? subjectOf(DEMO_EMAIL) : undefined });
  } catch (err) {
    fail(describeDatabaseError(err, target));
  } finally {
    // PGlite allows one process at a time: release it before the server opens it.
    await handle.close();
  }
}

export function bannerLines(appUrl: string, demo?: DemoAccount): string[] {
  const lines = [`✓ SheetAPI is running at ${appUrl}`, `  Health: ${appUrl}/health · API: ${appUrl}/api · Guide: ${appUrl}/docs`];
  if (!demo) return lines;
  const rows = `${appUrl}/api/v1/${demo.sheetId}/${encodeURIComponent(demo.tab)}`;
  lines.push(
    `  Demo sheet:   ${demo.sheetId} (docs: ${appUrl}/docs/${demo.sheetId})`,
    `  Demo API key: ${demo.apiKey}`,
    `  Try:          curl -H "X-API-Key: ${demo.apiKey}" ${rows}`,
  );
  if (demo.signInEmail) {
    lines.push(`  Dashboard:    open ${appUrl}/signin, Continue with Google, and on the emulator's Google screen sign in as ${demo.signInEmail}`);
  }
  return lines;
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
  const emulatorUrl = `http://127.0.0.1:${cfg.env.GOOGLE_EMULATOR_PORT}`;

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
    ...(embeddedGoogle ? { GOOGLE_API_ROOT_URL: emulatorUrl } : {}),
  };
  // Next sets NODE_ENV itself; an inherited "development" breaks `next build` prerendering.
  Reflect.deleteProperty(env, "NODE_ENV");

  if (!dev && buildIsStale(root, env)) {
    step("Building the app (first start or sources changed)…");
    const started = Date.now();
    await runNextBuild(root, env).catch((err: Error) => fail(err.message));
    step(`Built in ${Math.round((Date.now() - started) / 1000)} s`);
  }
  step(`Starting the server on ${host}:${port}${dev ? " (development mode)" : ""}…`);

  const plan: StartPlan = {
    production: cfg.production,
    emulator: embeddedGoogle
      ? {
          port: cfg.env.GOOGLE_EMULATOR_PORT,
          url: emulatorUrl,
          dataFile: resolve(cfg.dataDir, "google-emulator.json"),
          serviceAccountEmail: cfg.google.serviceAccount.email,
          // Given to the emulator as uploading it in IAM gives it to Google: its token endpoint
          // then accepts this instance's signed assertions.
          serviceAccountPublicKey: createPublicKey(cfg.google.serviceAccount.privateKey).export({ type: "spki", format: "pem" }).toString(),
        }
      : undefined,
    server: { command: process.execPath, args: [nextBin, dev ? "dev" : "start", "-p", port, "-H", host], env, localUrl: `http://127.0.0.1:${port}` },
    banner: bannerLines(cfg.appUrl, demo),
  };
  if (!process.send) fail("lib/cli/prepare.ts is run by lib/cli/start.mjs (npm start), not on its own.");
  process.send(plan, () => process.exit(0));
}

void main();
