// Paid plans through Stripe, or none (`BILLING=off`): owners then switch plans without payment.
import { ConfigError } from "./config-error";
import type { Env } from "./schema";

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

export const STRIPE_SETTINGS = [
  "STRIPE_SECRET_KEY",
  "STRIPE_WEBHOOK_SECRET",
  "STRIPE_PRICE_STARTER",
  "STRIPE_PRICE_PROFESSIONAL",
  "STRIPE_PRICE_BUSINESS",
] as const;

/**
 * Billing is on when Stripe is configured. Production with no Stripe keys refuses to start
 * unless BILLING=off says by name that no payment is taken; elsewhere (embedded defaults) it is off.
 */
export function billingConfig(env: Env, production: boolean): BillingConfig {
  if (env.BILLING === "off") return { enabled: false, reason: "off" };
  const missing = STRIPE_SETTINGS.filter((name) => !env[name]);
  if (!env.STRIPE_SECRET_KEY && env.BILLING !== "on" && !production) return { enabled: false, reason: "embedded" };
  if (missing.length) {
    throw new ConfigError(
      `Paid plans need these settings: ${missing.join(", ")}. Set them (see docs/operations.md, "Billing setup (Stripe)"), or set BILLING=off to run without payment (owners then change plans freely).`,
    );
  }
  // "price_new,price_old": the first is sold; subscribers of a former price keep their plan.
  const ids = (value: string | undefined) =>
    value!
      .split(",")
      .map((id) => id.trim())
      .filter(Boolean);
  const accepted = {
    starter: ids(env.STRIPE_PRICE_STARTER),
    professional: ids(env.STRIPE_PRICE_PROFESSIONAL),
    business: ids(env.STRIPE_PRICE_BUSINESS),
  };
  const api = env.STRIPE_API_URL ? new URL(env.STRIPE_API_URL) : undefined;
  return {
    enabled: true,
    secretKey: env.STRIPE_SECRET_KEY!,
    webhookSecret: env.STRIPE_WEBHOOK_SECRET!,
    api: api && {
      host: api.hostname,
      port: Number(api.port || (api.protocol === "https:" ? 443 : 80)),
      protocol: api.protocol === "https:" ? "https" : "http",
    },
    prices: { starter: accepted.starter[0]!, professional: accepted.professional[0]!, business: accepted.business[0]! },
    acceptedPrices: accepted,
  };
}
