// Which plan a customer's subscriptions give (the rule every webhook applies).
import { describe, expect, it } from "vitest";
import type Stripe from "stripe";
import type { StripeBilling } from "./client";
import { duplicatesOf, unusedShare } from "./duplicates";
import { currentSubscription, stateOf } from "./subscription-sync";

const billing = {
  enabled: true,
  secretKey: "sk_test_x",
  webhookSecret: "whsec_x",
  prices: { starter: "price_s2", professional: "price_p", business: "price_b" },
  acceptedPrices: { starter: ["price_s2", "price_s1"], professional: ["price_p"], business: ["price_b"] },
} satisfies StripeBilling;

const sub = (status: Stripe.Subscription.Status, price: string, created: number) =>
  ({
    id: `sub_${created}`,
    status,
    created,
    current_period_start: created,
    current_period_end: created + 2_592_000,
    cancel_at_period_end: false,
    items: { data: [{ price: { id: price } }] },
  }) as unknown as Stripe.Subscription;

describe("the plan a subscription gives", () => {
  it.each([
    ["active", "price_b", "business"],
    ["trialing", "price_p", "professional"],
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

  it.each([
    ["price_p", "price_p", "professional"], // grace while Stripe retries a renewal
    ["price_b", "price_s1", "starter"], // an upgrade whose invoice is unpaid gives nothing
    ["price_b", "price_p", "professional"],
    ["price_s2", "price_b", "starter"], // a downgrade applies at once
    ["price_b", null, "free_trial"], // nothing ever paid
  ] as const)("past_due on %s, last paid %s, gives %s", (price, paid, plan) => {
    expect(stateOf(billing, sub("past_due", price, 1_700_000_000), paid).plan).toBe(plan);
  });

  it("keeps the paying subscription in good standing paid first, whatever the order; the others are duplicates", () => {
    const first = sub("active", "price_b", 1_700_000_000);
    const second = sub("active", "price_s2", 1_700_000_060);
    const failing = sub("past_due", "price_p", 1_600_000_000);
    for (const order of [
      [first, second],
      [second, first],
    ]) {
      expect(currentSubscription(order)).toBe(first);
      expect(duplicatesOf(order, first)).toEqual([second]);
    }
    expect(currentSubscription([failing, second])).toBe(second);
    // The unused part of the period, to the second, rounded as Stripe rounds prorations.
    expect(unusedShare(900, { start: 0, end: 2_592_000 }, 60)).toBe(Math.round((900 * (2_592_000 - 60)) / 2_592_000));
    expect(unusedShare(900, { start: 0, end: 100 }, 200)).toBe(0);
  });

  it("takes the paying subscription over a newer ended one, and Free Trial when there is none", () => {
    const paying = sub("active", "price_p", 1_700_000_000);
    const ended = sub("canceled", "price_b", 1_800_000_000);
    expect(currentSubscription([ended, paying])).toBe(paying);
    expect(currentSubscription([sub("canceled", "price_b", 1), ended])).toBe(ended);
    expect(stateOf(billing, undefined)).toMatchObject({
      plan: "free_trial",
      state: { status: null, subscriptionId: null },
    });
    expect(stateOf(billing, paying).state.currentPeriodStart!.getTime()).toBe(1_700_000_000_000);
  });
});
