// The plan follows the subscription (DECISIONS 14). Whatever event arrives, in whatever order and
// however often, the account is set from the customer's subscriptions as Stripe holds them now:
// a late or repeated event can then never undo a newer state.
import type Stripe from "stripe";
import { updateSubscriptionState, type SubscriptionState } from "@/db/queries/billing";
import { forgetAccountLimits } from "@/lib/limits/accounts";
import { stripeFor, type StripeBilling } from "./client";
import { planForPrice } from "./plans";
import { PAYING } from "@/lib/plans";


/** The subscription that decides the plan: the newest paying one, else the newest of any status. */
export function currentSubscription(subscriptions: Stripe.Subscription[]): Stripe.Subscription | undefined {
  const newest = [...subscriptions].sort((a, b) => b.created - a.created);
  return newest.find((s) => PAYING.has(s.status)) ?? newest[0];
}

export function stateOf(billing: StripeBilling, subscription: Stripe.Subscription | undefined): { state: SubscriptionState; plan: string } {
  if (!subscription) {
    return { state: { subscriptionId: null, status: null, priceId: null, currentPeriodStart: null, currentPeriodEnd: null, cancelAtPeriodEnd: false }, plan: "free_trial" };
  }
  const priceId = subscription.items.data[0]?.price.id ?? null;
  const plan = PAYING.has(subscription.status) ? (planForPrice(billing, priceId) ?? "free_trial") : "free_trial";
  return {
    state: {
      subscriptionId: subscription.id,
      status: subscription.status,
      priceId,
      currentPeriodStart: new Date(subscription.current_period_start * 1000),
      currentPeriodEnd: new Date(subscription.current_period_end * 1000),
      cancelAtPeriodEnd: subscription.cancel_at_period_end,
    },
    plan,
  };
}

/** Re-reads the customer's subscriptions and stores the plan they give; undefined for a customer of no account. */
export async function syncCustomer(billing: StripeBilling, customerId: string): Promise<{ userId: string; plan: string } | undefined> {
  const stripe = stripeFor(billing);
  const result = await updateSubscriptionState({ customerId }, async () => {
    // Read under the account's row lock: a short timeout keeps a slow Stripe from holding it long.
    const list = await stripe.subscriptions.list({ customer: customerId, status: "all", limit: 100 }, { timeout: 5_000, maxNetworkRetries: 1 });
    return stateOf(billing, currentSubscription(list.data));
  });
  if (result) forgetAccountLimits(result.userId);
  return result;
}
