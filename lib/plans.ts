// The plans of the spec, in one table: requests per month, day and hour, the burst per minute,
// and webhook endpoints per sheet. Limits are per account, shared by all its keys and sheets.
export const PLANS = {
  free_trial: { label: "Free Trial", month: 3_000, day: 100, hour: 10, burst: 5, webhookEndpointsPerSheet: 1 },
  starter: { label: "Starter", month: 10_000, day: 333, hour: 50, burst: 20, webhookEndpointsPerSheet: 3 },
  professional: {
    label: "Professional",
    month: 100_000,
    day: 3_333,
    hour: 500,
    burst: 100,
    webhookEndpointsPerSheet: 10,
  },
  business: { label: "Business", month: 1_000_000, day: 33_333, hour: 5_000, burst: 500, webhookEndpointsPerSheet: 25 },
} as const;

export type PlanId = keyof typeof PLANS;
export interface Plan {
  label: string;
  month: number;
  day: number;
  hour: number;
  burst: number;
  webhookEndpointsPerSheet: number;
}

/** Only the plans sold: own keys of the table, never inherited names such as `constructor` or `__proto__`. */
export function isPlanId(value: unknown): value is PlanId {
  return typeof value === "string" && Object.hasOwn(PLANS, value);
}

export function planOf(id: string): Plan {
  return isPlanId(id) ? PLANS[id] : PLANS.free_trial;
}

/** The plans sold through Stripe; Free Trial costs nothing. */
export const PAID_PLANS = ["starter", "professional", "business"] as const;
export type PaidPlan = (typeof PAID_PLANS)[number];

export function isPaidPlan(value: unknown): value is PaidPlan {
  return typeof value === "string" && (PAID_PLANS as readonly string[]).includes(value);
}

/**
 * Stripe subscription statuses that keep a paid plan: `past_due` is the grace while Stripe
 * retries a failed payment. Every other status (canceled, unpaid, incomplete, paused) is Free Trial.
 */
export const PAYING = new Set<string>(["active", "trialing", "past_due"]);

/** Deliveries count toward nothing on the plan: only the number of webhook endpoints differs. */
export function planLimits(plan: string): { endpointsPerSheet: number } {
  return { endpointsPerSheet: planOf(plan).webhookEndpointsPerSheet };
}
