// Upgrading through Stripe Checkout and managing through the customer portal. The account's
// Stripe customer is created once and kept; the plan changes only when Stripe's webhook says
// the subscription is active, never when the browser comes back.
import { getBillingAccount, saveBillingCustomer } from "@/db/queries/billing";
import { config } from "@/lib/env";
import { ApiError } from "@/lib/errors";
import { stripeBilling, stripeFor, type StripeBilling } from "./client";
import { isPaidPlan } from "@/lib/plans";
import { PAYING } from "@/lib/plans";

async function customerFor(billing: StripeBilling, user: { id: string; email: string | null }): Promise<string> {
  const existing = await getBillingAccount({ userId: user.id });
  if (existing) return existing.stripeCustomerId;
  const customer = await stripeFor(billing).customers.create({ email: user.email ?? undefined, metadata: { account_id: user.id } });
  return (await saveBillingCustomer({ userId: user.id, customerId: customer.id })).stripeCustomerId;
}

/** The Checkout page's address for a paid plan; an account already subscribed changes plan in the portal. */
export async function startCheckout(user: { id: string; email: string | null }, plan: string): Promise<string> {
  const billing = stripeBilling();
  if (!isPaidPlan(plan)) throw new ApiError("validation_error", "That plan is not sold: choose Starter, Professional or Business.");
  const account = await getBillingAccount({ userId: user.id });
  if (account?.status && PAYING.has(account.status)) {
    throw new ApiError("conflict", "This account already has a subscription: change its plan with Manage billing.");
  }
  const customer = await customerFor(billing, user);
  // Stripe's webhook may not have arrived yet: a payment made a moment ago must not be taken twice.
  if (account) {
    const held = await stripeFor(billing).subscriptions.list({ customer, status: "all", limit: 100 }, { timeout: 5_000 });
    if (held.data.some((s) => PAYING.has(s.status))) {
      throw new ApiError("conflict", "This account already has a subscription (its payment is being confirmed): change its plan with Manage billing.");
    }
  }
  const usage = `${config().appUrl}/dashboard/usage`;
  const session = await stripeFor(billing).checkout.sessions.create({
    mode: "subscription",
    customer,
    client_reference_id: user.id,
    line_items: [{ price: billing.prices[plan], quantity: 1 }],
    success_url: `${usage}?checkout=done`,
    cancel_url: `${usage}?checkout=canceled`,
    metadata: { account_id: user.id, plan },
  });
  if (!session.url) throw new ApiError("bad_gateway", "Stripe did not return a Checkout address.");
  return session.url;
}

/** The customer portal's address: card, invoices, plan changes and cancellation. */
export async function openPortal(user: { id: string }): Promise<string> {
  const billing = stripeBilling();
  const account = await getBillingAccount({ userId: user.id });
  if (!account) throw new ApiError("not_found", "This account has no billing yet: choose a paid plan first.");
  const session = await stripeFor(billing).billingPortal.sessions.create({ customer: account.stripeCustomerId, return_url: `${config().appUrl}/dashboard/usage` });
  return session.url;
}
