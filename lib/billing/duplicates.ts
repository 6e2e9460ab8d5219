// One live subscription per account. Two Checkout sessions paid before either's webhook arrived
// leave two; the one kept is the one in good standing paid first, and each other is canceled at
// once and refunded the unused part of its period, to the second, as Stripe prorates. Its
// cancellation comment marks it, so a refund that failed is made on a later event.
import type Stripe from "stripe";
import { log } from "@/lib/log";
import { PAYING } from "@/lib/plans";

const QUICK = { timeout: 5_000, maxNetworkRetries: 1 };
export const DUPLICATE_MARK = "SheetAPI: duplicate of ";

/** Active or trialing before past due, then the older, then the id: the same choice from any event. */
function standing(a: Stripe.Subscription, b: Stripe.Subscription): number {
  const rank = (s: Stripe.Subscription) => (s.status === "past_due" ? 1 : 0);
  return rank(a) - rank(b) || a.created - b.created || (a.id < b.id ? -1 : 1);
}

/** The subscription that decides the plan: the kept paying one, else the newest of any status. */
export function currentSubscription(subscriptions: Stripe.Subscription[]): Stripe.Subscription | undefined {
  const paying = subscriptions.filter((s) => PAYING.has(s.status)).sort(standing);
  return paying[0] ?? [...subscriptions].sort((a, b) => b.created - a.created)[0];
}

export function duplicatesOf(
  subscriptions: Stripe.Subscription[],
  kept: Stripe.Subscription | undefined,
): Stripe.Subscription[] {
  return subscriptions.filter((s) => s !== kept && PAYING.has(s.status));
}

/** The unused part of what the invoice paid for the period, at `at` (Unix seconds). */
export function unusedShare(amountPaid: number, period: { start: number; end: number }, at: number): number {
  const share = Math.min(1, Math.max(0, (period.end - at) / (period.end - period.start)));
  return Math.round(amountPaid * share);
}

async function refundUnused(stripe: Stripe, subscription: Stripe.Subscription): Promise<void> {
  if (typeof subscription.latest_invoice !== "string" || !subscription.canceled_at) return;
  const invoice = await stripe.invoices.retrieve(subscription.latest_invoice, {}, QUICK);
  const charge = typeof invoice.charge === "string" ? invoice.charge : invoice.charge?.id;
  if (!charge || invoice.amount_paid <= 0) return;
  const given = await stripe.refunds.list({ charge, limit: 100 }, QUICK);
  if (given.data.some((r) => r.metadata?.subscription === subscription.id)) return;
  const amount = unusedShare(
    invoice.amount_paid,
    { start: subscription.current_period_start, end: subscription.current_period_end },
    subscription.canceled_at,
  );
  if (amount <= 0) return;
  await stripe.refunds.create(
    { charge, amount, reason: "duplicate", metadata: { subscription: subscription.id } },
    { ...QUICK, idempotencyKey: `duplicate-refund-${subscription.id}` },
  );
  log.warn(
    { subscription: subscription.id, customer: subscription.customer, amount },
    "billing: a duplicate subscription was canceled and refunded",
  );
}

/**
 * Cancels each duplicate and refunds what it has not used; answers the customer's subscriptions
 * as Stripe holds them afterwards. A failure throws: the webhook answers 5xx and Stripe retries.
 */
export async function retireDuplicates(
  stripe: Stripe,
  subscriptions: Stripe.Subscription[],
): Promise<Stripe.Subscription[]> {
  const kept = currentSubscription(subscriptions);
  const after = await Promise.all(
    subscriptions.map(async (s) => {
      if (!kept || !duplicatesOf(subscriptions, kept).includes(s)) return s;
      return stripe.subscriptions.cancel(
        s.id,
        { cancellation_details: { comment: `${DUPLICATE_MARK}${kept.id}` } },
        { ...QUICK, idempotencyKey: `duplicate-cancel-${s.id}` },
      );
    }),
  );
  for (const s of after) {
    if (s.status === "canceled" && s.cancellation_details?.comment?.startsWith(DUPLICATE_MARK))
      await refundUnused(stripe, s);
  }
  return after;
}
