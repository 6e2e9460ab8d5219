// The plans of the spec, in one table: requests per month, day and hour, and the burst per
// minute. Limits are per account, shared by all its keys and sheets.
export const PLANS = {
  free_trial: { label: "Free Trial", month: 3_000, day: 100, hour: 10, burst: 5 },
  starter: { label: "Starter", month: 10_000, day: 333, hour: 50, burst: 20 },
  professional: { label: "Professional", month: 100_000, day: 3_333, hour: 500, burst: 100 },
  business: { label: "Business", month: 1_000_000, day: 33_333, hour: 5_000, burst: 500 },
} as const;

export type PlanId = keyof typeof PLANS;
export interface Plan {
  label: string;
  month: number;
  day: number;
  hour: number;
  burst: number;
}

/** Only the plans sold: own keys of the table, never inherited names such as `constructor` or `__proto__`. */
export function isPlanId(value: unknown): value is PlanId {
  return typeof value === "string" && Object.hasOwn(PLANS, value);
}

export function planOf(id: string): Plan {
  return isPlanId(id) ? PLANS[id] : PLANS.free_trial;
}
