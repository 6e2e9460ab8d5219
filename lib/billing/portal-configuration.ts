// The customer portal's configuration, made by the service (found again by a fingerprint in its
// metadata): plan changes among the prices sold, invoiced and charged at once (`always_invoice`),
// cancellation at the period's end. The portal cannot hold an upgrade until paid (API 2024-04-10):
// subscription-sync gives a past-due subscription the plan last paid for instead.
import { createHash } from "node:crypto";
import type Stripe from "stripe";
import { perProcess } from "@/lib/per-process";
import { stripeFor, type StripeBilling } from "./client";
import { PAID_PLANS } from "@/lib/plans";

const made = perProcess("stripe-portal-configurations", () => new Map<string, string>());
const QUICK = { timeout: 5_000 };

export async function portalFeatures(
  stripe: Stripe,
  billing: StripeBilling,
): Promise<Stripe.BillingPortal.ConfigurationCreateParams.Features> {
  const prices = await Promise.all(PAID_PLANS.map((plan) => stripe.prices.retrieve(billing.prices[plan], {}, QUICK)));
  const products = new Map<string, string[]>();
  for (const price of prices) {
    const product = typeof price.product === "string" ? price.product : price.product.id;
    products.set(product, [...(products.get(product) ?? []), price.id]);
  }
  return {
    subscription_update: {
      enabled: true,
      default_allowed_updates: ["price"],
      products: [...products].map(([product, ids]) => ({ product, prices: ids })),
      proration_behavior: "always_invoice",
    },
    subscription_cancel: { enabled: true, mode: "at_period_end", proration_behavior: "none" },
    payment_method_update: { enabled: true },
    invoice_history: { enabled: true },
  };
}

/** The id of the portal configuration the service wants, made once per set of prices. */
export async function portalConfiguration(billing: StripeBilling): Promise<string> {
  const key = `${billing.secretKey}@${billing.api?.host ?? ""}:${billing.api?.port ?? ""}/${PAID_PLANS.map((plan) => billing.prices[plan]).join(",")}`;
  const known = made.get(key);
  if (known) return known;
  const stripe = stripeFor(billing);
  const features = await portalFeatures(stripe, billing);
  const fingerprint = createHash("sha256").update(JSON.stringify(features)).digest("hex").slice(0, 24);
  const existing = (await stripe.billingPortal.configurations.list({ active: true, limit: 100 }, QUICK)).data.find(
    (c) => c.metadata?.sheetapi_portal === fingerprint,
  );
  const configuration =
    existing ??
    (await stripe.billingPortal.configurations.create(
      {
        business_profile: { headline: "SheetAPI: plan, card and invoices" },
        features,
        metadata: { sheetapi_portal: fingerprint },
      },
      { idempotencyKey: `portal-configuration-${fingerprint}` },
    ));
  made.set(key, configuration.id);
  return configuration.id;
}
