// The work `npm start` does before and beside the server, in a process of its own that exits when
// done: configuration, build, migrations, demo seed (README.md).
import { createPublicKey } from "node:crypto";
import { rmSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { DATABASE_GATE_VAR } from "@/db/gate";
import type { DemoAccount } from "@/lib/accounts/demo";
import { EMULATOR_DEFAULTS, emulatedSubjectOf } from "@/lib/emulator-defaults";
import { CONFIG_VARIABLES, ConfigError, loadConfig, type AppConfig } from "@/lib/env";
import { limitStoreProblem } from "@/lib/store/store-check";
import { buildIsStale, freshBuildTime, nextBin } from "./build-state.mjs";
import { hasStandaloneServer, STANDALONE_SERVER } from "./standalone.mjs";
import { runNextBuild } from "./next-build";
import { keepPlan } from "./start-plan-cache.mjs";

/**
 * What the launcher needs to start the server; sent over IPC, then `{ banner }` once the database
 * is ready. Kept for the next start with the same configuration (start-plan-cache.mjs), so it
 * holds no secrets: the server's environment is the launcher's own with `envSet` and `envUnset`.
 */
export interface StartPlan {
  production: boolean;
  /** emulators/google to run (or reuse) on loopback, when Google is embedded. */
  emulator?: {
    port: number;
    url: string;
    dataFile: string;
    serviceAccountEmail: string;
    serviceAccountKeys: { email: string; publicKey: string }[];
  };
  server: { command: string; args: string[]; envSet: Record<string, string>; envUnset: string[]; localUrl: string };
  /** The embedded database's gate file (db/gate.ts), when the server starts before the migrations end. */
  gate?: string;
  /** A build was made by this start: a server started earlier from the kept plan must start again. */
  built: boolean;
}

const root = resolve(import.meta.dirname, "..", "..");
const dev = process.argv.includes("--dev");
const step = (text: string) => console.log(`▸ ${text}`);

function fail(message: string): never {
  console.error(`✗ ${message}`);
  process.exit(1);
}

async function prepareDatabase(cfg: AppConfig): Promise<DemoAccount | undefined> {
  // Imported here, not at the top: the server is started before these (PGlite, drizzle, the
  // account modules) have loaded.
  const [{ openDatabase, setDatabase }, { migrateDatabase }, { describeDatabaseError }, { DEMO_EMAIL, seedDemo }] =
    await Promise.all([
      import("@/db/client"),
      import("@/db/migrator"),
      import("@/db/database-errors"),
      import("@/lib/accounts/demo"),
    ]);
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
    return await seedDemo(cfg, { googleSubject: cfg.google.emulated ? emulatedSubjectOf(DEMO_EMAIL) : undefined });
  } catch (err) {
    fail(describeDatabaseError(err, target));
  } finally {
    // PGlite allows one process at a time: release it before the server opens it.
    await handle.close();
  }
}

export function bannerLines(appUrl: string, demo?: DemoAccount, production = false): string[] {
  const lines = [
    `✓ SheetAPI is running at ${appUrl}`,
    `  Health: ${appUrl}/health · API: ${appUrl}/api · Guide: ${appUrl}/docs`,
  ];
  if (!demo) return lines;
  const rows = `${appUrl}/api/v1/${demo.sheetId}/${encodeURIComponent(demo.tab)}`;
  // Production logs are collected and kept: a live key never goes into them (DEMO_API_KEY, or
  // the demo account's dashboard, gives it to whoever needs it).
  const key = production ? "$DEMO_API_KEY" : demo.apiKey;
  lines.push(
    `  Demo sheet:   ${demo.sheetId} (docs: ${appUrl}/docs/${demo.sheetId})`,
    production
      ? `  Demo API key: ${demo.apiKey.slice(0, 8)}… (not printed in production: DEMO_API_KEY sets it, the dashboard shows it)`
      : `  Demo API key: ${demo.apiKey}`,
    `  Try:          curl -H "X-API-Key: ${key}" ${rows}`,
  );
  if (demo.signInEmail) {
    lines.push(
      `  Dashboard:    open ${appUrl}/signin, Continue with Google, and on the emulator's Google screen sign in as ${demo.signInEmail}`,
      `  Registering:  the emulator's sample spreadsheets belong to ${EMULATOR_DEFAULTS.userEmail}: sign in as it to register them (any other address is a new account with an empty Drive, which offers to create a sample spreadsheet)`,
    );
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
  const storeProblem = await limitStoreProblem(cfg.limitStore);
  if (storeProblem) fail(storeProblem.message);
  const embeddedGoogle = cfg.google.emulated && !cfg.env.GOOGLE_API_ROOT_URL;
  step(
    `Configuration: database ${cfg.database.kind}, limit store ${cfg.limitStore.kind}, Google ${cfg.google.emulated ? "emulated" : "live"}`,
  );
  const emulatorUrl = `http://127.0.0.1:${cfg.env.GOOGLE_EMULATOR_PORT}`;

  // Postgres: migrated before the server starts. PGlite: after, behind the gate (see the top).
  const gate = cfg.database.kind === "pglite" ? resolve(cfg.dataDir, "database-preparing.pid") : undefined;
  const database = gate ? undefined : await prepareDatabase(cfg);
  const port = String(cfg.env.PORT);
  const host = cfg.env.HOST ?? (cfg.production ? "0.0.0.0" : "127.0.0.1");
  const envSet: Record<string, string> = {
    NEXT_TELEMETRY_DISABLED: "1",
    DATA_DIR: cfg.dataDir,
    AUTH_URL: cfg.appUrl,
    // `next start` always runs with NODE_ENV=production; what was allowed here stays allowed there.
    ...(cfg.production ? {} : { ALLOW_EMBEDDED: "1" }),
    // Likewise billing: off here without Stripe keys stays off under `next start`.
    ...(cfg.billing.enabled || cfg.production ? {} : { BILLING: "off" }),
    ...(embeddedGoogle ? { GOOGLE_API_ROOT_URL: emulatorUrl } : {}),
    ...(gate ? { [DATABASE_GATE_VAR]: gate } : {}),
  };
  // Next sets NODE_ENV itself; an inherited "development" breaks `next build` prerendering.
  const envUnset = ["NODE_ENV"];
  const env: NodeJS.ProcessEnv = { ...process.env, ...envSet };
  for (const name of envUnset) Reflect.deleteProperty(env, name);

  // Production runs what `npm run build` made and never builds on the host (that needs the
  // devDependencies, minutes of CPU, and would judge staleness by file times a deploy rewrites).
  if (cfg.production && !dev && !hasStandaloneServer(root)) {
    fail(
      `No build to start: production runs ${STANDALONE_SERVER}, made by \`npm run build\` (docs/operations.md, Deploy). Run \`npm run build\` first.`,
    );
  }
  const built = !dev && !cfg.production && buildIsStale(root, env);
  if (built) {
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
          // Given to the emulator as uploading them in IAM gives them to Google: its token endpoint
          // then accepts this instance's signed assertions, for each of its service accounts.
          serviceAccountKeys: cfg.google.serviceAccounts.map((a) => ({
            email: a.email,
            publicKey: createPublicKey(a.privateKey).export({ type: "spki", format: "pem" }).toString(),
          })),
        }
      : undefined,
    // The standalone server reads its address from PORT and HOSTNAME (set here: a shell's or a
    // container's HOSTNAME names the machine, not an interface).
    server: dev
      ? {
          command: process.execPath,
          args: [nextBin, "dev", "-p", port, "-H", host],
          envSet,
          envUnset,
          localUrl: `http://127.0.0.1:${port}`,
        }
      : {
          command: process.execPath,
          args: [resolve(root, STANDALONE_SERVER)],
          envSet: { ...envSet, PORT: port, HOSTNAME: host },
          envUnset,
          localUrl: `http://127.0.0.1:${port}`,
        },
    gate,
    built,
  };
  const send = process.send?.bind(process);
  if (!send) fail("lib/cli/prepare.ts is run by lib/cli/start.mjs (npm start), not on its own.");
  if (gate) writeFileSync(gate, String(process.pid));
  send(plan);
  // Only a server that starts before its migrations may start from a kept plan (on Postgres they come first).
  const buildTime = freshBuildTime(root, env);
  if (gate && !dev && buildTime !== undefined)
    keepPlan(root, CONFIG_VARIABLES, process.env, process.argv.slice(2), buildTime, { ...plan, built: false });
  let demo = database;
  if (gate) {
    try {
      demo = await prepareDatabase(cfg);
    } finally {
      rmSync(gate, { force: true });
    }
  }
  send({ banner: bannerLines(cfg.appUrl, demo, cfg.production) }, () => process.exit(0));
}

void main();
