// The one place that reads process.env. Every variable is documented in .env.example. With none
// set the service runs on embedded defaults: PGlite under DATA_DIR, an in-process limit store,
// emulators/google on loopback and secrets generated into DATA_DIR.
import { generateKeyPairSync, randomBytes } from "node:crypto";
import { closeSync, linkSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from "node:fs";
import { join, resolve } from "node:path";
import { z } from "zod";
import { DATABASE_VARIABLES, databaseTargetOf, type DatabaseTarget } from "../db/settings";
import { EMULATOR_DEFAULTS } from "./emulator-defaults";
import { KEY_FORMAT } from "./api-key";

const flag = z
  .enum(["1", "0", "true", "false", "yes", "no", ""])
  .optional()
  .transform((v) => v === "1" || v === "true" || v === "yes");
const optional = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === "" ? undefined : v.trim()));
const optionalUrl = optional.pipe(z.url().optional());

const schema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  HOST: optional,
  APP_URL: optionalUrl,
  DATA_DIR: DATABASE_VARIABLES.DATA_DIR,
  ALLOW_EMBEDDED: flag,
  // Where the database is: defined in db/settings.ts, which db/ reads on its own.
  DATABASE_URL: DATABASE_VARIABLES.DATABASE_URL,
  DATABASE_PREPARED_STATEMENTS: DATABASE_VARIABLES.DATABASE_PREPARED_STATEMENTS,
  UPSTASH_REDIS_REST_URL: optionalUrl,
  UPSTASH_REDIS_REST_TOKEN: optional,
  /** A Redis of one's own (redis:// or rediss://), the limit store when Upstash is not configured. */
  REDIS_URL: optional.pipe(z.url({ protocol: /^rediss?$/, error: "must be a redis:// or rediss:// URL" }).optional()),
  RATE_LIMIT_MULTIPLIER: z.coerce.number().positive().default(1),
  LIMIT_STORE_TIMEOUT_MS: z.coerce.number().int().min(50).max(10_000).default(1000),
  RATE_LIMITS: z.enum(["on", "off"]).default("on"),
  INVALID_KEY_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(300),
  TRUSTED_PROXY_HOPS: z.coerce.number().int().min(0).max(10).default(0),
  USAGE_FLUSH_MS: z.coerce.number().int().min(100).max(600_000).default(5_000),
  GOOGLE_API_ROOT_URL: optionalUrl,
  GOOGLE_EMULATOR_PORT: z.coerce.number().int().min(1).max(65535).default(4010),
  GOOGLE_API_KEY: optional,
  GOOGLE_SERVICE_ACCOUNT_JSON: optional,
  /** More service accounts (identities, each with its own Google quota): a JSON list of key files, raw or base64. */
  GOOGLE_SERVICE_ACCOUNTS: optional,
  GOOGLE_CLIENT_ID: optional,
  GOOGLE_CLIENT_SECRET: optional,
  GOOGLE_OAUTH_ISSUER: optionalUrl,
  /** The Google Picker's loader; Google's own unless Google is emulated. */
  GOOGLE_PICKER_SCRIPT_URL: optionalUrl,
  /** The project number of the OAuth client's Cloud project (the Picker's app id). */
  GOOGLE_CLOUD_PROJECT_NUMBER: optional,
  /** A browser API key for the Picker (restrict it to this site); GOOGLE_API_KEY when unset. */
  GOOGLE_PICKER_API_KEY: optional,
  GOOGLE_REQUEST_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(5_000),
  GOOGLE_RETRY_BUDGET_MS: z.coerce.number().int().min(0).max(120_000).default(8_000),
  GOOGLE_QUOTA_PER_IDENTITY_MINUTE: z.coerce.number().int().min(1).default(60),
  GOOGLE_QUOTA_PER_PROJECT_MINUTE: z.coerce.number().int().min(1).default(300),
  /** The most of each Google quota window one customer account may take in a minute (1: no cap). */
  GOOGLE_QUOTA_ACCOUNT_SHARE: z.coerce.number().gt(0).max(1).default(0.5),
  GOOGLE_QUOTA_WAIT_MS: z.coerce.number().int().min(0).max(60_000).default(2_000),
  /**
   * Webhook targets allowed although they are private or loopback addresses (self-hosted
   * installs, tests): host names, IP addresses or CIDR ranges, comma-separated.
   */
  WEBHOOK_ALLOWED_TARGETS: z.string().default(""),
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(10_000),
  /** Scales the retry schedule, the one-day give-up and the three-day disable (tests shrink them). */
  WEBHOOK_RETRY_SCALE: z.coerce.number().gt(0).max(1).default(1),
  /** Days a change event (and its delivery log) is kept; older ones are removed hourly. */
  EVENT_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(30),
  CHANGE_CHECK_INTERVAL_MS: z.coerce.number().int().min(0).max(600_000).default(2_000),
  /**
   * How long a registrant's proof of access holds before a request re-checks it with Google
   * (DECISIONS 18: a change in Google takes effect within 5 minutes, so never longer).
   */
  ACCESS_RECHECK_INTERVAL_MS: z.coerce.number().int().min(100).max(300_000).default(300_000),
  /**
   * How long a registration made before proof of access existed is still served once a re-check
   * finds it unproven (counted from that check), so its owner can prove access before it is
   * suspended. Default 14 days.
   */
  ACCESS_PROOF_GRACE_MS: z.coerce.number().int().min(0).default(14 * 24 * 60 * 60 * 1000),
  /** Whether the web server also runs the background work (webhook delivery, retention); 0 where the worker (lib/cli/worker.ts) runs apart. */
  WEB_RUNS_WORKER: flag.default(true),
  /** Bearer secret a scheduler sends to /cron/webhooks and /cron/sweeps (Vercel Cron sends CRON_SECRET); unset, they answer 404. */
  CRON_SECRET: optional,
  /** Bearer token for GET /metrics (Prometheus); unset, the route answers 404. */
  METRICS_TOKEN: optional,
  /** The port the worker serves GET /metrics on (the same exposition and token rule); unset, none. */
  WORKER_METRICS_PORT: optional.pipe(z.coerce.number<string | undefined>().int().min(1).max(65535).optional()),
  /** How long the server and the worker wait at start for a Postgres that does not answer, before they stop. */
  DATABASE_START_WAIT_MS: z.coerce.number().int().min(0).max(600_000).default(20_000),
  /** How long a stopping server waits for the requests under way: at least the longest a request may take. */
  SHUTDOWN_DRAIN_MS: z.coerce.number().int().min(0).max(600_000).default(60_000),
  AUTH_SECRET: optional,
  ENCRYPTION_KEY: optional,
  DEMO_MODE: z
    .enum(["1", "0", "true", "false", "yes", "no", ""])
    .optional()
    .transform((v) => (v === undefined || v === "" ? undefined : v === "1" || v === "true" || v === "yes")),
  BENCH_BARE_JSON_FILE: optional,
  /** `off`: no payment is taken and owners switch plans freely (self-hosting); the default without Stripe keys outside production. */
  BILLING: z.enum(["on", "off", ""]).optional().transform((v) => (v === "" ? undefined : v)),
  STRIPE_SECRET_KEY: optional,
  STRIPE_WEBHOOK_SECRET: optional,
  /** Another Stripe API address (emulators/stripe); Stripe's own when unset. */
  STRIPE_API_URL: optionalUrl,
  STRIPE_PRICE_STARTER: optional,
  STRIPE_PRICE_PROFESSIONAL: optional,
  STRIPE_PRICE_BUSINESS: optional,
  DEMO_API_KEY: optional.pipe(z.string().regex(KEY_FORMAT, "must look like shk_ followed by 20 to 64 letters and digits").optional()),
});

export type Env = z.infer<typeof schema>;

/** Every variable the configuration reads: the same values give the same configuration. */
export const CONFIG_VARIABLES = Object.keys(schema.shape);

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
export function tracingSettings(source: Record<string, string | undefined> = process.env): { endpoint: string; serviceName: string } | undefined {
  const endpoint = source.OTEL_EXPORTER_OTLP_ENDPOINT?.trim();
  if (!endpoint) return undefined;
  return { endpoint, serviceName: source.OTEL_SERVICE_NAME?.trim() || "sheetapi" };
}

/** What production must set, unless ALLOW_EMBEDDED=true says otherwise; and a limit store (PRODUCTION_STORE). */
export const PRODUCTION_REQUIRED = [
  "APP_URL",
  "DATABASE_URL",
  "AUTH_SECRET",
  "ENCRYPTION_KEY",
  "GOOGLE_API_KEY",
  "GOOGLE_SERVICE_ACCOUNT_JSON",
  "GOOGLE_CLIENT_ID",
  "GOOGLE_CLIENT_SECRET",
  "GOOGLE_CLOUD_PROJECT_NUMBER",
] as const;

/** Production's shared limit store: either one, named so when neither is set. */
export const PRODUCTION_STORE = "REDIS_URL (or UPSTASH_REDIS_REST_URL and UPSTASH_REDIS_REST_TOKEN)";

export class ConfigError extends Error {}

export interface ServiceAccount {
  email: string;
  privateKey: string;
  /** Where its signed assertions are exchanged for access tokens (the key file's token_uri). */
  tokenUrl: string;
}

/** Google's token endpoint: the `token_uri` of every service-account key file. */
const GOOGLE_TOKEN_URI = "https://oauth2.googleapis.com/token";

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
  /** `file`: where the embedded store is kept across restarts (none under tests, which each start empty). */
  /** Upstash when UPSTASH_REDIS_REST_URL is set (even beside REDIS_URL), else Redis when REDIS_URL is, else memory. */
  limitStore: { kind: "memory"; file?: string } | { kind: "upstash"; url: string; token: string; timeoutMs: number } | { kind: "redis"; url: string; timeoutMs: number };
  google: {
    /** True when Google is emulators/google (embedded default or GOOGLE_API_ROOT_URL). */
    emulated: boolean;
    /** Base for the Sheets and Drive clients; undefined means Google's own endpoints. */
    rootUrl?: string;
    apiKey: string;
    /** The first identity: sheets registered before there were several keep it. */
    serviceAccount: ServiceAccount;
    /** Every identity sheets are spread over (the first is `serviceAccount`); one on embedded defaults. */
    serviceAccounts: ServiceAccount[];
    oauth: { clientId: string; clientSecret: string; issuer: string };
    /** The Google Picker, loaded in the owner's browser to choose a sheet (drive.file). */
    picker: { scriptUrl: string; appId: string; developerKey: string };
    requestTimeoutMs: number;
    /** No retry starts later than this after the first attempt. */
    retryBudgetMs: number;
  };
  secrets: { authSecret: string; encryptionKey: Buffer };
  demo: { enabled: boolean; apiKey?: string };
  billing: BillingConfig;
}

/** Paid plans through Stripe, or none (`BILLING=off`): owners then switch plans without payment. */
export type BillingConfig =
  | { enabled: false; reason: "off" | "embedded" }
  | {
      enabled: true;
      secretKey: string;
      webhookSecret: string;
      api?: { host: string; port: number; protocol: "http" | "https" };
      /** The Stripe price id each paid plan sells (configuration, not code). */
      prices: { starter: string; professional: string; business: string };
      /** Every price id that gives each plan: the one sold, then earlier ones subscribers may still pay. */
      acceptedPrices: { starter: string[]; professional: string[]; business: string[] };
    };

const STRIPE_SETTINGS = ["STRIPE_SECRET_KEY", "STRIPE_WEBHOOK_SECRET", "STRIPE_PRICE_STARTER", "STRIPE_PRICE_PROFESSIONAL", "STRIPE_PRICE_BUSINESS"] as const;

/**
 * Billing is on when Stripe is configured. Production with no Stripe keys refuses to start
 * unless BILLING=off says by name that no payment is taken; elsewhere (embedded defaults) it is off.
 */
function billingConfig(env: Env, production: boolean): BillingConfig {
  if (env.BILLING === "off") return { enabled: false, reason: "off" };
  const missing = STRIPE_SETTINGS.filter((name) => !env[name]);
  if (!env.STRIPE_SECRET_KEY && env.BILLING !== "on" && !production) return { enabled: false, reason: "embedded" };
  if (missing.length) {
    throw new ConfigError(
      `Paid plans need these settings: ${missing.join(", ")}. Set them (see docs/operations.md, "Billing setup (Stripe)"), or set BILLING=off to run without payment (owners then change plans freely).`,
    );
  }
  // "price_new,price_old": the first is sold; subscribers of a former price keep their plan.
  const ids = (value: string | undefined) => value!.split(",").map((id) => id.trim()).filter(Boolean);
  const accepted = { starter: ids(env.STRIPE_PRICE_STARTER), professional: ids(env.STRIPE_PRICE_PROFESSIONAL), business: ids(env.STRIPE_PRICE_BUSINESS) };
  const api = env.STRIPE_API_URL ? new URL(env.STRIPE_API_URL) : undefined;
  return {
    enabled: true,
    secretKey: env.STRIPE_SECRET_KEY!,
    webhookSecret: env.STRIPE_WEBHOOK_SECRET!,
    api: api && { host: api.hostname, port: Number(api.port || (api.protocol === "https:" ? 443 : 80)), protocol: api.protocol === "https:" ? "https" : "http" },
    prices: { starter: accepted.starter[0]!, professional: accepted.professional[0]!, business: accepted.business[0]! },
    acceptedPrices: accepted,
  };
}

interface GeneratedSecrets {
  authSecret: string;
  encryptionKey: string;
  serviceAccountKey: string;
  demoApiKey?: string;
}

/** Secrets for embedded mode, generated once and kept in DATA_DIR/secrets.json (mode 0600). */
export function generatedSecrets(dataDir: string): GeneratedSecrets {
  const file = join(dataDir, "secrets.json");
  try {
    return JSON.parse(readFileSync(file, "utf8")) as GeneratedSecrets;
  } catch {
    mkdirSync(dataDir, { recursive: true });
    const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
    const fresh: GeneratedSecrets = {
      authSecret: randomBytes(32).toString("base64url"),
      encryptionKey: randomBytes(32).toString("base64"),
      serviceAccountKey: privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
    };
    // Written whole under another name, then linked into place: when two processes start at once
    // (the server and the start's preparation), the first link wins and the other reads a complete file.
    const draft = `${file}.${process.pid}.tmp`;
    const fd = openSync(draft, "w", 0o600);
    try {
      writeSync(fd, JSON.stringify(fresh, null, 2));
      closeSync(fd);
      linkSync(draft, file);
      return fresh;
    } catch {
      return JSON.parse(readFileSync(file, "utf8")) as GeneratedSecrets;
    } finally {
      rmSync(draft, { force: true });
    }
  }
}

const serviceAccountKeyFile = z.object({ client_email: z.string().email(), private_key: z.string().min(1), token_uri: z.url().optional() });

/** JSON as written, or base64 of it (what a secret store without newlines keeps). */
function jsonSetting(name: string, value: string): unknown {
  const text = /^\s*[[{]/.test(value) ? value : Buffer.from(value, "base64").toString("utf8");
  try {
    return JSON.parse(text);
  } catch {
    throw new ConfigError(`${name}: not JSON (nor base64 of JSON)`);
  }
}

function toServiceAccount(key: z.infer<typeof serviceAccountKeyFile>, emulatedTokenUrl: string | undefined): ServiceAccount {
  return { email: key.client_email, privateKey: key.private_key, tokenUrl: emulatedTokenUrl ?? key.token_uri ?? GOOGLE_TOKEN_URI };
}

function parseServiceAccount(json: string, emulatedTokenUrl: string | undefined): ServiceAccount {
  const parsed = serviceAccountKeyFile.safeParse(jsonSetting("GOOGLE_SERVICE_ACCOUNT_JSON", json));
  if (!parsed.success) throw new ConfigError("GOOGLE_SERVICE_ACCOUNT_JSON: needs client_email and private_key");
  return toServiceAccount(parsed.data, emulatedTokenUrl);
}

/** GOOGLE_SERVICE_ACCOUNTS: a list of key files as Google gives them, one per identity. */
function parseServiceAccounts(json: string, emulatedTokenUrl: string | undefined): ServiceAccount[] {
  const parsed = z.array(serviceAccountKeyFile).min(1).safeParse(jsonSetting("GOOGLE_SERVICE_ACCOUNTS", json));
  if (!parsed.success) throw new ConfigError("GOOGLE_SERVICE_ACCOUNTS: needs a JSON list of key files, each with client_email and private_key");
  return parsed.data.map((key) => toServiceAccount(key, emulatedTokenUrl));
}

/**
 * The service's identities: GOOGLE_SERVICE_ACCOUNT_JSON first (sheets registered before the list
 * existed keep it), then the list, each address once.
 */
function serviceAccountsOf(env: Env, emulatedTokenUrl: string | undefined, generated: GeneratedSecrets | undefined): ServiceAccount[] {
  const single = env.GOOGLE_SERVICE_ACCOUNT_JSON ? [parseServiceAccount(env.GOOGLE_SERVICE_ACCOUNT_JSON, emulatedTokenUrl)] : [];
  const listed = env.GOOGLE_SERVICE_ACCOUNTS ? parseServiceAccounts(env.GOOGLE_SERVICE_ACCOUNTS, emulatedTokenUrl) : [];
  const all = [...single, ...listed].filter((account, i, list) => list.findIndex((a) => a.email === account.email) === i);
  if (all.length) return all;
  return [{ email: EMULATOR_DEFAULTS.serviceAccountEmail, privateKey: generated!.serviceAccountKey, tokenUrl: emulatedTokenUrl ?? GOOGLE_TOKEN_URI }];
}

function parseKey(value: string): Buffer {
  const key = /^[0-9a-f]{64}$/i.test(value) ? Buffer.from(value, "hex") : Buffer.from(value, "base64");
  if (key.length !== 32) throw new ConfigError("ENCRYPTION_KEY: must be 32 bytes, as 64 hex digits or base64");
  return key;
}

function limitStoreOf(env: Env, dataDir: string): AppConfig["limitStore"] {
  const timeoutMs = env.LIMIT_STORE_TIMEOUT_MS;
  if (env.UPSTASH_REDIS_REST_URL && env.UPSTASH_REDIS_REST_TOKEN) return { kind: "upstash", url: env.UPSTASH_REDIS_REST_URL, token: env.UPSTASH_REDIS_REST_TOKEN, timeoutMs };
  if (env.REDIS_URL) return { kind: "redis", url: env.REDIS_URL, timeoutMs };
  return { kind: "memory", ...(env.NODE_ENV === "test" ? {} : { file: join(dataDir, "limit-store.json") }) };
}

export function loadConfig(source: Record<string, string | undefined> = process.env): AppConfig {
  const parsed = schema.safeParse(source);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join("\n")}`);
  }
  const env = parsed.data;
  const production = env.NODE_ENV === "production";
  if (production && !env.ALLOW_EMBEDDED) {
    // The list of service accounts stands in for the single one.
    const required: string[] = PRODUCTION_REQUIRED.filter((name) => !env[name] && !(name === "GOOGLE_SERVICE_ACCOUNT_JSON" && env.GOOGLE_SERVICE_ACCOUNTS));
    if (!env.REDIS_URL && !env.UPSTASH_REDIS_REST_URL) required.splice(1, 0, PRODUCTION_STORE);
    // Stripe's named in the same go, so a first start lists all; alone, billingConfig says it.
    const stripe = env.BILLING === "off" ? [] : STRIPE_SETTINGS.filter((name) => !env[name]);
    if (required.length) {
      throw new ConfigError(
        `Production needs these settings: ${[...required, ...stripe].join(", ")}. ` +
          "Set them (see docs/operations.md, Deploy), or set ALLOW_EMBEDDED=true to run on embedded defaults." +
          (stripe.length ? ' For STRIPE_* see "Billing setup (Stripe)" there, or set BILLING=off to run without payment.' : ""),
      );
    }
  }
  if (env.UPSTASH_REDIS_REST_URL && !env.UPSTASH_REDIS_REST_TOKEN) {
    throw new ConfigError("UPSTASH_REDIS_REST_TOKEN: required when UPSTASH_REDIS_REST_URL is set");
  }
  const dataDir = resolve(env.DATA_DIR);
  const ownServiceAccount = Boolean(env.GOOGLE_SERVICE_ACCOUNT_JSON || env.GOOGLE_SERVICE_ACCOUNTS);
  const needsGenerated = !env.AUTH_SECRET || !env.ENCRYPTION_KEY || !ownServiceAccount;
  const generated = needsGenerated ? generatedSecrets(dataDir) : undefined;
  const realGoogle = Boolean(ownServiceAccount && env.GOOGLE_CLIENT_ID) && !env.GOOGLE_API_ROOT_URL;
  const emulatorUrl = env.GOOGLE_API_ROOT_URL ?? `http://127.0.0.1:${env.GOOGLE_EMULATOR_PORT}`;
  // Next.js reports every loopback host as "localhost" (NextURL), so a 127.0.0.1 base URL would
  // send sign-in redirects to another origin than the one holding the cookies.
  const oauthIssuer = env.GOOGLE_OAUTH_ISSUER ?? (realGoogle ? "https://accounts.google.com" : emulatorUrl.replace(/\/$/, ""));
  // Emulated Google answers token requests at its issuer, as Google does at oauth2.googleapis.com.
  const emulatedTokenUrl = realGoogle ? undefined : `${oauthIssuer}/token`;
  const serviceAccounts = serviceAccountsOf(env, emulatedTokenUrl, generated);
  const appUrl = (env.APP_URL ?? `http://localhost:${env.PORT}`).replace(/\/$/, "").replace(/^(https?:\/\/)(127(?:\.\d+){3}|\[::1\])(?=[:/]|$)/, "$1localhost");

  return {
    env,
    production,
    embedded: !env.DATABASE_URL && !realGoogle && env.NODE_ENV !== "test" && (!production || env.ALLOW_EMBEDDED),
    appUrl,
    dataDir,
    database: databaseTargetOf(env),
    limitStore: limitStoreOf(env, dataDir),
    google: {
      emulated: !realGoogle,
      rootUrl: realGoogle ? undefined : emulatorUrl.replace(/\/$/, ""),
      apiKey: env.GOOGLE_API_KEY ?? EMULATOR_DEFAULTS.apiKey,
      serviceAccount: serviceAccounts[0]!,
      serviceAccounts,
      oauth: {
        clientId: env.GOOGLE_CLIENT_ID ?? EMULATOR_DEFAULTS.clientId,
        clientSecret: env.GOOGLE_CLIENT_SECRET ?? EMULATOR_DEFAULTS.clientSecret,
        issuer: oauthIssuer,
      },
      picker: {
        scriptUrl: env.GOOGLE_PICKER_SCRIPT_URL ?? (realGoogle ? "https://apis.google.com/js/api.js" : `${emulatorUrl.replace(/\/$/, "")}/js/api.js`),
        appId: env.GOOGLE_CLOUD_PROJECT_NUMBER ?? (realGoogle ? "" : EMULATOR_DEFAULTS.projectNumber),
        developerKey: env.GOOGLE_PICKER_API_KEY ?? env.GOOGLE_API_KEY ?? EMULATOR_DEFAULTS.apiKey,
      },
      requestTimeoutMs: env.GOOGLE_REQUEST_TIMEOUT_MS,
      retryBudgetMs: env.GOOGLE_RETRY_BUDGET_MS,
    },
    secrets: {
      authSecret: env.AUTH_SECRET ?? generated!.authSecret,
      encryptionKey: parseKey(env.ENCRYPTION_KEY ?? generated!.encryptionKey),
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
