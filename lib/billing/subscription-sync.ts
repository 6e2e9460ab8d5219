// The plan follows the subscription (DECISIONS 14). Whatever event arrives, in whatever order and
// however often, the account is set from the customer's subscriptions as Stripe holds them now.
// While past due, the plan is the one last paid for, or the subscription's own if lower: an
// upgrade whose invoice is unpaid gives nothing.
import type Stripe from "stripe";
import { updateSubscriptionState, type SubscriptionState } from "@/db/queries/billing";
import { forgetAccountLimits } from "@/lib/limits/accounts";
import { stripeFor, type StripeBilling } from "./client";
import { currentSubscription, retireDuplicates } from "./duplicates";
import { planForPrice } from "./plans";
import { PAID_PLANS, PAYING, type PaidPlan } from "@/lib/plans";

export { currentSubscription };

const QUICK = { timeout: 5_000, maxNetworkRetries: 1 };

/** The price a paid invoice paid for: its period's line, else the newest price it charged. */
export function pricePaidBy(invoice: Stripe.Invoice): string | null {
  const lines = invoice.lines.data.filter((l) => l.amount > 0 && l.price);
  return (lines.find((l) => !l.proration) ?? lines.at(-1))?.price?.id ?? null;
}

const lower = (a: PaidPlan | undefined, b: PaidPlan | undefined): PaidPlan | undefined =>
  a && b ? PAID_PLANS[Math.min(PAID_PLANS.indexOf(a), PAID_PLANS.indexOf(b))] : undefined;

/** `paidPriceId`: the price the subscription's latest paid invoice paid for (read only when past due). */
export function stateOf(
  billing: StripeBilling,
  subscription: Stripe.Subscription | undefined,
  paidPriceId: string | null = null,
): { state: SubscriptionState; plan: string } {
  if (!subscription) {
    return {
      state: {
        subscriptionId: null,
        status: null,
        priceId: null,
        currentPeriodStart: null,
        currentPeriodEnd: null,
        cancelAtPeriodEnd: false,
      },
      plan: "free_trial",
    };
  }
  const priceId = subscription.items.data[0]?.price.id ?? null;
  const subscribed = PAYING.has(subscription.status) ? planForPrice(billing, priceId) : undefined;
  const plan = subscription.status === "past_due" ? lower(subscribed, planForPrice(billing, paidPriceId)) : subscribed;
  return {
    state: {
      subscriptionId: subscription.id,
      status: subscription.status,
      priceId,
      currentPeriodStart: new Date(subscription.current_period_start * 1000),
      currentPeriodEnd: new Date(subscription.current_period_end * 1000),
      cancelAtPeriodEnd: subscription.cancel_at_period_end,
    },
    plan: plan ?? "free_trial",
  };
}

async function lastPaidPrice(stripe: Stripe, subscription: Stripe.Subscription): Promise<string | null> {
  const [invoice] = (await stripe.invoices.list({ subscription: subscription.id, status: "paid", limit: 1 }, QUICK))
    .data;
  return invoice ? pricePaidBy(invoice) : null;
}

/** Re-reads the customer's subscriptions and stores the plan they give; undefined for a customer of no account. */
export async function syncCustomer(
  billing: StripeBilling,
  customerId: string,
): Promise<{ userId: string; plan: string } | undefined> {
  const stripe = stripeFor(billing);
  const result = await updateSubscriptionState({ customerId }, async () => {
    // Read under the account's row lock (so only one event at a time cancels a duplicate); short
    // timeouts keep a slow Stripe from holding it long.
    const list = await stripe.subscriptions.list({ customer: customerId, status: "all", limit: 100 }, QUICK);
    const current = currentSubscription(await retireDuplicates(stripe, list.data));
    return stateOf(billing, current, current?.status === "past_due" ? await lastPaidPrice(stripe, current) : null);
  });
  if (result) forgetAccountLimits(result.userId);
  return result;
}
