// Stripe's events (`/api/stripe/webhook`): the signature is checked over the raw body with the
// endpoint secret; each event id is handled once; each event only says which customer to read
// again (see subscription-sync), so order and retries do not matter.
import Stripe from "stripe";
import { recordStripeEvent, stripeEventSeen } from "@/db/queries/billing";
import { ApiError } from "@/lib/errors";
import { stripeBilling, stripeFor } from "./client";
import { syncCustomer } from "./subscription-sync";

export const HANDLED_EVENTS = new Set([
  "checkout.session.completed",
  "customer.subscription.created",
  "customer.subscription.updated",
  "customer.subscription.deleted",
  "invoice.paid",
  "invoice.payment_failed",
]);

function customerOf(event: Stripe.Event): string | undefined {
  const customer = (event.data.object as { customer?: unknown }).customer;
  if (typeof customer === "string") return customer;
  if (customer && typeof customer === "object" && typeof (customer as { id?: unknown }).id === "string")
    return (customer as { id: string }).id;
  return undefined;
}

export type WebhookOutcome = "handled" | "duplicate" | "ignored";

export async function handleStripeWebhook(rawBody: string, signature: string | null): Promise<WebhookOutcome> {
  const billing = stripeBilling();
  if (!signature) throw new ApiError("validation_error", "Missing Stripe-Signature header.");
  let event: Stripe.Event;
  try {
    event = stripeFor(billing).webhooks.constructEvent(rawBody, signature, billing.webhookSecret);
  } catch (err) {
    if (err instanceof Stripe.errors.StripeSignatureVerificationError) {
      throw new ApiError(
        "validation_error",
        "Invalid Stripe-Signature: the payload was not signed with this endpoint's secret, or the signature is too old.",
      );
    }
    throw new ApiError("validation_error", "The signed payload is not a Stripe event (not valid JSON).");
  }
  if (await stripeEventSeen({ id: event.id })) return "duplicate";
  const customer = HANDLED_EVENTS.has(event.type) ? customerOf(event) : undefined;
  // A failure here answers 5xx without recording the event, so Stripe delivers it again.
  // A customer of no account here (another service on the same Stripe account) changes nothing.
  const synced = customer ? await syncCustomer(billing, customer) : undefined;
  await recordStripeEvent({ id: event.id, type: event.type });
  return synced ? "handled" : "ignored";
}
