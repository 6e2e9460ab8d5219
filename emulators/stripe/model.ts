// The emulator's objects, kept in Stripe's published shapes (API version 2024-04-10, the one the
// `stripe` package in use is pinned to). Fields are those of the OpenAPI description; values the
// emulator has no notion of (tax, discounts, shipping) are given as Stripe gives them when unused.
import { randomBytes } from "node:crypto";

export type Obj = Record<string, unknown> & { id: string; object: string };

export interface PriceSeed {
  id: string;
  product: string;
  /** Smallest currency unit (cents), as Stripe counts. */
  unitAmount: number;
  currency?: string;
  nickname?: string;
}

export function newId(prefix: string): string {
  return `${prefix}_${randomBytes(12).toString("base64url").replace(/[-_]/g, "x")}`;
}

/** The instant `months` whole months after `from` (Unix seconds), keeping the day when it can. */
export function addMonths(from: number, months: number): number {
  const d = new Date(from * 1000);
  const y = d.getUTCFullYear();
  const m = d.getUTCMonth() + months;
  const lastDay = new Date(Date.UTC(y, m + 1, 0)).getUTCDate();
  return (
    Date.UTC(y, m, Math.min(d.getUTCDate(), lastDay), d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds()) / 1000
  );
}

export function customerObject(
  id: string,
  created: number,
  input: { email?: string; name?: string; metadata?: Record<string, string> },
): Obj {
  return {
    id,
    object: "customer",
    address: null,
    balance: 0,
    created,
    currency: null,
    default_source: null,
    delinquent: false,
    description: null,
    discount: null,
    email: input.email ?? null,
    invoice_prefix: randomBytes(4).toString("hex").toUpperCase(),
    invoice_settings: { custom_fields: null, default_payment_method: null, footer: null, rendering_options: null },
    livemode: false,
    metadata: input.metadata ?? {},
    name: input.name ?? null,
    next_invoice_sequence: 1,
    phone: null,
    preferred_locales: [],
    shipping: null,
    tax_exempt: "none",
    test_clock: null,
  };
}

export function priceObject(seed: PriceSeed, created: number): Obj {
  return {
    id: seed.id,
    object: "price",
    active: true,
    billing_scheme: "per_unit",
    created,
    currency: seed.currency ?? "usd",
    custom_unit_amount: null,
    livemode: false,
    lookup_key: null,
    metadata: {},
    nickname: seed.nickname ?? null,
    product: seed.product,
    recurring: { aggregate_usage: null, interval: "month", interval_count: 1, meter: null, usage_type: "licensed" },
    tax_behavior: "unspecified",
    tiers_mode: null,
    transform_quantity: null,
    type: "recurring",
    unit_amount: seed.unitAmount,
    unit_amount_decimal: String(seed.unitAmount),
  };
}

export function listObject(url: string, data: unknown[], hasMore = false): Record<string, unknown> {
  return { object: "list", data, has_more: hasMore, url };
}
