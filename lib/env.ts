// The one place that reads process.env. Every variable is documented in .env.example. With none
// set the service runs on embedded defaults: PGlite under DATA_DIR, an in-process limit store,
// emulators/google on loopback and secrets generated into DATA_DIR. The pieces are in lib/env/.
import { resolve } from "node:path";
import { databaseTargetOf, type DatabaseTarget } from "../db/settings";
import { billingConfig, type BillingConfig } from "./env/billing";
import { ConfigError } from "./env/config-error";
import { googleConfig, hasOwnServiceAccount, type GoogleConfig } from "./env/google";
import { checkProductionSettings } from "./env/production";
import { schema, type Env } from "./env/schema";
import { encryptionKeyOf, generatedSecrets } from "./env/secrets";
import { checkLimitStoreSettings, limitStoreConfig, type LimitStoreConfig } from "./env/stores";

export { ConfigError, type BillingConfig, type Env };
export { CONFIG_VARIABLES } from "./env/schema";
export { PRODUCTION_REQUIRED, PRODUCTION_STORE } from "./env/production";

const LOG_LEVELS = ["trace", "debug", "info", "warn", "error", "fatal", "silent"] as const;

/**
 * The log level, read on its own: the logger must exist before the configuration is validated
 * (and to report that it is not valid). Tests log nothing unless they ask.
 */
export function logLevel(source: Record<string, string | undefined> = process.env): (typeof LOG_LEVELS)[number] {
  const wanted = source.LOG_LEVEL?.trim().toLowerCase();
  if (wanted && (LOG_LEVELS as readonly string[]).includes(wanted)) return wanted as (typeof LOG_LEVELS)[number];
  return source.VITEST ? "silent" : "info";
}

/**
 * Where OpenTelemetry traces go (OTLP over HTTP), read on its own: tracing starts in the
 * instrumentation hook, before anything else loads. Undefined: tracing stays off.
 */
export function tracingSettings(
  source: Record<string, string | undefined> = process.env,
): { endpoint: string; serviceName: string } | undefined {
  const endpoint = source.OTEL_EXPORTER_OTLP_ENDPOINT?.trim();
  if (!endpoint) return undefined;
  return { endpoint, serviceName: source.OTEL_SERVICE_NAME?.trim() || "sheetapi" };
}

export interface AppConfig {
  env: Env;
  production: boolean;
  /**
   * Running on embedded defaults: the embedded database and emulated Google, as `npm start` with
   * nothing set (its server runs with NODE_ENV=production and ALLOW_EMBEDDED). Someone trying
   * SheetAPI on their own machine, never a deployment (that has DATABASE_URL); not under tests,
   * which check production's rules unless they ask for these.
   */
  embedded: boolean;
  appUrl: string;
  dataDir: string;
  database: DatabaseTarget;
  limitStore: LimitStoreConfig;
  google: GoogleConfig;
  secrets: { authSecret: string; encryptionKey: Buffer };
  demo: { enabled: boolean; apiKey?: string };
  billing: BillingConfig;
}

export function loadConfig(source: Record<string, string | undefined> = process.env): AppConfig {
  const parsed = schema.safeParse(source);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join("\n")}`);
  }
  const env = parsed.data;
  const production = env.NODE_ENV === "production";
  checkProductionSettings(env);
  checkLimitStoreSettings(env);
  const dataDir = resolve(env.DATA_DIR);
  const needsGenerated = !env.AUTH_SECRET || !env.ENCRYPTION_KEY || !hasOwnServiceAccount(env);
  const generated = needsGenerated ? generatedSecrets(dataDir) : undefined;
  const google = googleConfig(env, generated);
  const appUrl = (env.APP_URL ?? `http://localhost:${env.PORT}`)
    .replace(/\/$/, "")
    .replace(/^(https?:\/\/)(127(?:\.\d+){3}|\[::1\])(?=[:/]|$)/, "$1localhost");

  return {
    env,
    production,
    embedded: !env.DATABASE_URL && google.emulated && env.NODE_ENV !== "test" && (!production || env.ALLOW_EMBEDDED),
    appUrl,
    dataDir,
    database: databaseTargetOf(env),
    limitStore: limitStoreConfig(env, dataDir),
    google,
    secrets: {
      authSecret: env.AUTH_SECRET ?? generated!.authSecret,
      encryptionKey: encryptionKeyOf(env.ENCRYPTION_KEY ?? generated!.encryptionKey),
    },
    demo: {
      // Demo data only on the embedded database, or when asked for by name.
      enabled: env.DEMO_MODE ?? (!env.DATABASE_URL && !production),
      apiKey: env.DEMO_API_KEY,
    },
    billing: billingConfig(env, production),
  };
}

let cached: AppConfig | undefined;

/** The process's configuration, parsed once. */
export function config(): AppConfig {
  cached ??= loadConfig();
  return cached;
}

/** The configuration if something has loaded it already (never loads it: for the log writer). */
export const loadedConfig = (): AppConfig | undefined => cached;
