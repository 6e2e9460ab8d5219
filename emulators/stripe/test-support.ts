// Shared by the emulator's tests and the product's billing tests: an emulator on a free loopback
// port with the three paid plans' prices, and the official client pointed at it.
import Stripe from "stripe";
import type { PriceSeed } from "./model";
import { startStripeEmulator, type StripeEmulator, type StripeEmulatorOptions } from "./server";

export const TEST_SECRET_KEY = "sk_test_emulated";
export const TEST_PRICES: PriceSeed[] = [
  { id: "price_starter_monthly", product: "prod_starter", nickname: "Starter", unitAmount: 900 },
  { id: "price_professional_monthly", product: "prod_professional", nickname: "Professional", unitAmount: 2900 },
  { id: "price_business_monthly", product: "prod_business", nickname: "Business", unitAmount: 9900 },
];

export function startTestStripe(options: Partial<StripeEmulatorOptions> = {}): Promise<StripeEmulator> {
  return startStripeEmulator({
    secretKey: TEST_SECRET_KEY,
    prices: TEST_PRICES,
    retryDelaysMs: [50, 100, 200],
    ...options,
  });
}

export function clientFor(emulator: StripeEmulator): Stripe {
  return new Stripe(TEST_SECRET_KEY, {
    host: "127.0.0.1",
    port: emulator.port,
    protocol: "http",
    maxNetworkRetries: 0,
    telemetry: false,
  });
}

/** Submits the hosted Checkout page with a card, as a browser would. */
export async function payCheckout(sessionUrl: string, cardNumber: string): Promise<Response> {
  return fetch(sessionUrl, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ cardNumber, cardExpiry: "12 / 34", cardCvc: "123" }),
    redirect: "manual",
  });
}
