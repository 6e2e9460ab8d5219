// Upgrading through Stripe Checkout and managing through the customer portal. The account's
// Stripe customer is created once and kept; the plan changes only when Stripe's webhook says
// the subscription is active, never when the browser comes back. One Checkout session is open
// per account at a time: opening one expires the others, so two tabs cannot both be paid.
import { createHash } from "node:crypto";
import type Stripe from "stripe";
import { getBillingAccount, saveBillingCustomer, withBillingLock } from "@/db/queries/billing";
import { config } from "@/lib/env";
import { ApiError } from "@/lib/errors";
import { stripeBilling, stripeFor, type StripeBilling } from "./client";
import { isPaidPlan, PAYING } from "@/lib/plans";
import { portalConfiguration } from "./portal-configuration";

const QUICK = { timeout: 5_000 };
const SUBSCRIBED =
  "This account already has a subscription (its payment is being confirmed): change its plan with Manage billing.";

async function customerFor(billing: StripeBilling, user: { id: string; email: string | null }): Promise<string> {
  const existing = await getBillingAccount({ userId: user.id });
  if (existing) return existing.stripeCustomerId;
  const customer = await stripeFor(billing).customers.create({
    email: user.email ?? undefined,
    metadata: { account_id: user.id },
  });
  return (await saveBillingCustomer({ userId: user.id, customerId: customer.id })).stripeCustomerId;
}

/** Expires the customer's open sessions; one paid meanwhile (Stripe refuses to expire it) means a subscription. */
async function expireOpenSessions(stripe: Stripe, customer: string): Promise<string[]> {
  const open = await stripe.checkout.sessions.list({ customer, status: "open", limit: 100 }, QUICK);
  for (const session of open.data) {
    try {
      await stripe.checkout.sessions.expire(session.id, {}, QUICK);
    } catch (err) {
      const now = await stripe.checkout.sessions.retrieve(session.id, {}, QUICK).catch(() => {
        throw err;
      });
      if (now.status === "complete") throw new ApiError("conflict", SUBSCRIBED);
      if (now.status !== "expired") throw err;
    }
  }
  return open.data.map((s) => s.id);
}

/** The Checkout page's address for a paid plan; an account already subscribed changes plan in the portal. */
export async function startCheckout(user: { id: string; email: string | null }, plan: string): Promise<string> {
  const billing = stripeBilling();
  if (!isPaidPlan(plan))
    throw new ApiError("validation_error", "That plan is not sold: choose Starter, Professional or Business.");
  const account = await getBillingAccount({ userId: user.id });
  if (account?.status && PAYING.has(account.status)) {
    throw new ApiError("conflict", "This account already has a subscription: change its plan with Manage billing.");
  }
  const customer = await customerFor(billing, user);
  const stripe = stripeFor(billing);
  return withBillingLock({ userId: user.id }, async () => {
    // Sessions first: one paid a moment ago then shows among the subscriptions read next.
    const expired = await expireOpenSessions(stripe, customer);
    // Stripe's webhook may not have arrived yet: a payment made a moment ago must not be taken twice.
    const held = await stripe.subscriptions.list({ customer, status: "all", limit: 100 }, QUICK);
    if (held.data.some((s) => PAYING.has(s.status))) throw new ApiError("conflict", SUBSCRIBED);
    const usage = `${config().appUrl}/dashboard/usage`;
    // The same request sent again (a retry after a lost answer) gets the same session, never a second one.
    const seen = createHash("sha256")
      .update([...expired, ...held.data.map((s) => s.id)].join(","))
      .digest("hex")
      .slice(0, 16);
    const idempotencyKey = `checkout-${user.id}-${plan}-${Math.floor(Date.now() / 60_000)}-${seen}`;
    const session = await stripe.checkout.sessions.create(
      {
        mode: "subscription",
        customer,
        client_reference_id: user.id,
        line_items: [{ price: billing.prices[plan], quantity: 1 }],
        success_url: `${usage}?checkout=done`,
        cancel_url: `${usage}?checkout=canceled`,
        metadata: { account_id: user.id, plan },
      },
      { idempotencyKey },
    );
    if (!session.url) throw new ApiError("bad_gateway", "Stripe did not return a Checkout address.");
    return session.url;
  });
}

/** The customer portal's address: card, invoices, plan changes and cancellation. */
export async function openPortal(user: { id: string }): Promise<string> {
  const billing = stripeBilling();
  const account = await getBillingAccount({ userId: user.id });
  if (!account) throw new ApiError("not_found", "This account has no billing yet: choose a paid plan first.");
  const configuration = await portalConfiguration(billing);
  const session = await stripeFor(billing).billingPortal.sessions.create({
    customer: account.stripeCustomerId,
    configuration,
    return_url: `${config().appUrl}/dashboard/usage`,
  });
  return session.url;
}
