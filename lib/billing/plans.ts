// Which Stripe price sells which plan (configuration: STRIPE_PRICE_*), and what each costs as
// Stripe says (read from Stripe, kept ten minutes: a price changed in Stripe shows within that).
import { PAID_PLANS, PLANS, type PaidPlan, type PlanId } from "@/lib/plans";
import { errorFields, log } from "@/lib/log";
import { perProcess } from "@/lib/per-process";
import { stripeFor, type StripeBilling } from "./client";

/** The plan a price sells; undefined for a price this service does not sell. */
export function planForPrice(billing: StripeBilling, priceId: string | null | undefined): PaidPlan | undefined {
  return PAID_PLANS.find((plan) => typeof priceId === "string" && billing.acceptedPrices[plan].includes(priceId));
}

export interface PlanPrice {
  plan: PlanId;
  label: string;
  /** Smallest currency unit a month (0 for Free Trial); undefined when Stripe could not be asked. */
  amount?: number;
  currency: string;
}

const PRICE_TTL_MS = 10 * 60_000;
/** After a failed read, Stripe is asked again this much later: a page never waits on Stripe twice in a row. */
const PRICE_RETRY_MS = 60_000;
/** A page shows plans without prices rather than wait long for Stripe. */
const PRICE_READ_TIMEOUT_MS = 3_000;
const cache = perProcess("stripe-prices", () => ({
  at: 0,
  prices: new Map<string, { amount: number; currency: string }>(),
}));

/** Every plan with its monthly price, Free Trial first. */
export async function planPrices(billing: StripeBilling): Promise<PlanPrice[]> {
  if (Date.now() - cache.at > PRICE_TTL_MS) {
    try {
      const stripe = stripeFor(billing);
      const fetched = await Promise.all(
        PAID_PLANS.map((plan) =>
          stripe.prices.retrieve(billing.prices[plan], {}, { timeout: PRICE_READ_TIMEOUT_MS, maxNetworkRetries: 0 }),
        ),
      );
      cache.prices = new Map(fetched.map((p) => [p.id, { amount: p.unit_amount ?? 0, currency: p.currency }]));
      cache.at = Date.now();
    } catch (err) {
      cache.at = Date.now() - PRICE_TTL_MS + PRICE_RETRY_MS;
      log.warn(errorFields(err), "Stripe prices could not be read; plans are shown without prices");
    }
  }
  return (Object.keys(PLANS) as PlanId[]).map((plan) => {
    if (plan === "free_trial") return { plan, label: PLANS[plan].label, amount: 0, currency: "usd" };
    const price = cache.prices.get(billing.prices[plan as PaidPlan]);
    return { plan, label: PLANS[plan].label, amount: price?.amount, currency: price?.currency ?? "usd" };
  });
}

export function formatAmount(amount: number, currency: string): string {
  return new Intl.NumberFormat("en-US", {
    style: "currency",
    currency: currency.toUpperCase(),
    minimumFractionDigits: amount % 100 === 0 ? 0 : 2,
  }).format(amount / 100);
}
