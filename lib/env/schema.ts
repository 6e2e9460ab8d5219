// Every variable the configuration reads, as a zod schema: types, ranges and defaults. What the
// values then mean (database, stores, Google, billing) is derived in the files beside this one.
import { z } from "zod";
import { DATABASE_VARIABLES } from "../../db/settings";
import { KEY_FORMAT } from "../api-key";

const flag = z
  .enum(["1", "0", "true", "false", "yes", "no", ""])
  .optional()
  .transform((v) => v === "1" || v === "true" || v === "yes");
const optional = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === "" ? undefined : v.trim()));
const optionalUrl = optional.pipe(z.url().optional());

export const schema = z.object({
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
  ACCESS_PROOF_GRACE_MS: z.coerce
    .number()
    .int()
    .min(0)
    .default(14 * 24 * 60 * 60 * 1000),
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
  BILLING: z
    .enum(["on", "off", ""])
    .optional()
    .transform((v) => (v === "" ? undefined : v)),
  STRIPE_SECRET_KEY: optional,
  STRIPE_WEBHOOK_SECRET: optional,
  /** Another Stripe API address (emulators/stripe); Stripe's own when unset. */
  STRIPE_API_URL: optionalUrl,
  STRIPE_PRICE_STARTER: optional,
  STRIPE_PRICE_PROFESSIONAL: optional,
  STRIPE_PRICE_BUSINESS: optional,
  DEMO_API_KEY: optional.pipe(
    z.string().regex(KEY_FORMAT, "must look like shk_ followed by 20 to 64 letters and digits").optional(),
  ),
});

export type Env = z.infer<typeof schema>;

/** Every variable the configuration reads: the same values give the same configuration. */
export const CONFIG_VARIABLES = Object.keys(schema.shape);
