// Which plan a customer's subscriptions give (the rule every webhook applies).
import { describe, expect, it } from "vitest";
import type Stripe from "stripe";
import type { StripeBilling } from "./client";
import { currentSubscription, stateOf } from "./subscription-sync";

const billing = {
  enabled: true,
  secretKey: "sk_test_x",
  webhookSecret: "whsec_x",
  prices: { starter: "price_s2", professional: "price_p", business: "price_b" },
  acceptedPrices: { starter: ["price_s2", "price_s1"], professional: ["price_p"], business: ["price_b"] },
} satisfies StripeBilling;

const sub = (status: Stripe.Subscription.Status, price: string, created: number) =>
  ({ id: `sub_${created}`, status, created, current_period_start: created, current_period_end: created + 2_592_000, cancel_at_period_end: false, items: { data: [{ price: { id: price } }] } }) as unknown as Stripe.Subscription;

describe("the plan a subscription gives", () => {
  it.each([
    ["active", "price_b", "business"],
    ["trialing", "price_p", "professional"],
    ["past_due", "price_p", "professional"], // grace while Stripe retries
    ["active", "price_s1", "starter"], // a former price still gives its plan
    ["active", "price_unknown", "free_trial"], // a price this service does not sell
    ["canceled", "price_b", "free_trial"],
    ["unpaid", "price_b", "free_trial"],
    ["incomplete", "price_b", "free_trial"],
    ["incomplete_expired", "price_b", "free_trial"],
    ["paused", "price_b", "free_trial"],
  ] as const)("%s on %s gives %s", (status, price, plan) => {
    expect(stateOf(billing, sub(status, price, 1_700_000_000)).plan).toBe(plan);
  });

  it("takes the newest paying subscription over a newer ended one, and Free Trial when there is none", () => {
    const paying = sub("active", "price_p", 1_700_000_000);
    const ended = sub("canceled", "price_b", 1_800_000_000);
    expect(currentSubscription([ended, paying])).toBe(paying);
    expect(currentSubscription([sub("canceled", "price_b", 1), ended])).toBe(ended);
    expect(stateOf(billing, undefined)).toMatchObject({ plan: "free_trial", state: { status: null, subscriptionId: null } });
    expect(stateOf(billing, paying).state.currentPeriodStart!.getTime()).toBe(1_700_000_000_000);
  });
});
