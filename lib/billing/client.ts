// The official Stripe client, pointed where the configuration says (Stripe, or emulators/stripe
// on loopback through the client's host/port/protocol options).
import Stripe from "stripe";
import { config, type BillingConfig } from "@/lib/env";
import { ApiError } from "@/lib/errors";
import { perProcess } from "@/lib/per-process";

export type StripeBilling = Extract<BillingConfig, { enabled: true }>;

const clients = perProcess("stripe-clients", () => new Map<string, Stripe>());

export function stripeFor(billing: StripeBilling): Stripe {
  const key = `${billing.secretKey}@${billing.api?.host ?? ""}:${billing.api?.port ?? ""}`;
  let client = clients.get(key);
  if (!client) {
    client = new Stripe(billing.secretKey, {
      ...(billing.api ?? {}),
      maxNetworkRetries: 2,
      timeout: 10_000,
      telemetry: false,
      appInfo: { name: "SheetAPI" },
    });
    clients.set(key, client);
  }
  return client;
}

/** An error of Stripe's client (Stripe refused, failed or could not be reached), not of this service. */
export function isStripeError(err: unknown): boolean {
  return err instanceof Stripe.errors.StripeError;
}

/** Billing's settings, or a clear refusal when no payment is configured. */
export function stripeBilling(): StripeBilling {
  const billing = config().billing;
  if (!billing.enabled)
    throw new ApiError(
      "not_found",
      "Billing is off on this service: plans are changed in the dashboard without payment.",
    );
  return billing;
}
