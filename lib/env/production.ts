// What production must set, unless ALLOW_EMBEDDED=true says otherwise: every missing setting is
// named at once, Stripe's with them, so a first start lists all.
import { STRIPE_SETTINGS } from "./billing";
import { ConfigError } from "./config-error";
import type { Env } from "./schema";

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

export function checkProductionSettings(env: Env): void {
  if (env.NODE_ENV !== "production" || env.ALLOW_EMBEDDED) return;
  // The list of service accounts stands in for the single one.
  const required: string[] = PRODUCTION_REQUIRED.filter(
    (name) => !env[name] && !(name === "GOOGLE_SERVICE_ACCOUNT_JSON" && env.GOOGLE_SERVICE_ACCOUNTS),
  );
  // The store is named where Upstash's two settings stood: after the database.
  const afterDatabase = required.indexOf("DATABASE_URL") + 1 || required.indexOf("APP_URL") + 1;
  if (!env.REDIS_URL && !env.UPSTASH_REDIS_REST_URL) required.splice(afterDatabase, 0, PRODUCTION_STORE);
  // Stripe's named in the same go, so a first start lists all; alone, billingConfig says it.
  const stripe = env.BILLING === "off" ? [] : STRIPE_SETTINGS.filter((name) => !env[name]);
  if (required.length) {
    throw new ConfigError(
      `Production needs these settings: ${[...required, ...stripe].join(", ")}. ` +
        "Set them (see docs/operations.md, Deploy), or set ALLOW_EMBEDDED=true to run on embedded defaults." +
        (stripe.length
          ? ' For STRIPE_* see "Billing setup (Stripe)" there, or set BILLING=off to run without payment.'
          : ""),
    );
  }
}
