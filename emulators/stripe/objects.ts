// Checkout sessions, subscriptions and invoices in Stripe's shapes (API version 2024-04-10).
import { newId, listObject, type Obj } from "./model";

export function checkoutSessionObject(input: {
  id: string;
  created: number;
  customer: string;
  price: Obj;
  successUrl: string;
  cancelUrl: string | null;
  clientReferenceId: string | null;
  metadata: Record<string, string>;
  url: string;
}): Obj {
  const amount = input.price.unit_amount as number;
  return {
    id: input.id,
    object: "checkout.session",
    after_expiration: null,
    allow_promotion_codes: null,
    amount_subtotal: amount,
    amount_total: amount,
    automatic_tax: { enabled: false, liability: null, status: null },
    billing_address_collection: null,
    cancel_url: input.cancelUrl,
    client_reference_id: input.clientReferenceId,
    client_secret: null,
    consent: null,
    consent_collection: null,
    created: input.created,
    currency: input.price.currency,
    currency_conversion: null,
    custom_fields: [],
    custom_text: { after_submit: null, shipping_address: null, submit: null, terms_of_service_acceptance: null },
    customer: input.customer,
    customer_creation: null,
    customer_details: null,
    customer_email: null,
    expires_at: input.created + 24 * 3600,
    invoice: null,
    invoice_creation: null,
    livemode: false,
    locale: null,
    metadata: input.metadata,
    mode: "subscription",
    payment_intent: null,
    payment_link: null,
    payment_method_collection: "always",
    payment_method_configuration_details: null,
    payment_method_options: null,
    payment_method_types: ["card"],
    payment_status: "unpaid",
    phone_number_collection: { enabled: false },
    recovered_from: null,
    setup_intent: null,
    shipping_address_collection: null,
    shipping_cost: null,
    shipping_details: null,
    shipping_options: [],
    status: "open",
    submit_type: null,
    subscription: null,
    success_url: input.successUrl,
    total_details: { amount_discount: 0, amount_shipping: 0, amount_tax: 0 },
    ui_mode: "hosted",
    url: input.url,
  };
}

export function subscriptionItemObject(subscription: string, price: Obj, created: number): Obj {
  return {
    id: newId("si"),
    object: "subscription_item",
    billing_thresholds: null,
    created,
    discounts: [],
    metadata: {},
    price,
    quantity: 1,
    subscription,
    tax_rates: [],
  };
}

export function subscriptionObject(input: {
  id: string;
  customer: string;
  price: Obj;
  start: number;
  periodEnd: number;
  paymentMethod: string;
  metadata: Record<string, string>;
}): Obj {
  const item = subscriptionItemObject(input.id, input.price, input.start);
  return {
    id: input.id,
    object: "subscription",
    application: null,
    application_fee_percent: null,
    automatic_tax: { enabled: false, liability: null },
    billing_cycle_anchor: input.start,
    billing_cycle_anchor_config: null,
    billing_thresholds: null,
    cancel_at: null,
    cancel_at_period_end: false,
    canceled_at: null,
    cancellation_details: { comment: null, feedback: null, reason: null },
    collection_method: "charge_automatically",
    created: input.start,
    currency: input.price.currency,
    current_period_end: input.periodEnd,
    current_period_start: input.start,
    customer: input.customer,
    days_until_due: null,
    default_payment_method: input.paymentMethod,
    default_source: null,
    default_tax_rates: [],
    description: null,
    discount: null,
    discounts: [],
    ended_at: null,
    items: listObject(`/v1/subscription_items?subscription=${input.id}`, [item]),
    latest_invoice: null,
    livemode: false,
    metadata: input.metadata,
    next_pending_invoice_item_invoice: null,
    on_behalf_of: null,
    pause_collection: null,
    payment_settings: { payment_method_options: null, payment_method_types: null, save_default_payment_method: "off" },
    pending_invoice_item_interval: null,
    pending_setup_intent: null,
    pending_update: null,
    schedule: null,
    start_date: input.start,
    status: "active",
    test_clock: null,
    transfer_data: null,
    trial_end: null,
    trial_settings: { end_behavior: { missing_payment_method: "create_invoice" } },
    trial_start: null,
  };
}

export interface InvoiceLine {
  amount: number;
  description: string;
  price: Obj;
  period: { start: number; end: number };
  proration: boolean;
  subscriptionItem: string;
}

export function lineItemObject(line: InvoiceLine, subscription: string): Obj {
  return {
    id: newId("il"),
    object: "line_item",
    amount: line.amount,
    amount_excluding_tax: line.amount,
    currency: line.price.currency,
    description: line.description,
    discount_amounts: [],
    discountable: !line.proration,
    discounts: [],
    ...(line.proration ? { invoice_item: newId("ii") } : {}),
    livemode: false,
    metadata: {},
    period: line.period,
    price: line.price,
    proration: line.proration,
    proration_details: { credited_items: null },
    quantity: 1,
    subscription,
    subscription_item: line.subscriptionItem,
    tax_amounts: [],
    tax_rates: [],
    type: line.proration ? "invoiceitem" : "subscription",
    unit_amount_excluding_tax: String(line.amount),
  };
}

export function invoiceObject(input: {
  id: string | null;
  number: string | null;
  customer: Obj;
  subscription: string;
  created: number;
  billingReason: string;
  lines: InvoiceLine[];
  currency: string;
  appUrl: string;
}): Obj {
  const total = input.lines.reduce((sum, line) => sum + line.amount, 0);
  const amountDue = Math.max(0, total);
  const data = input.lines.map((line) => lineItemObject(line, input.subscription));
  return {
    ...(input.id ? { id: input.id } : {}),
    object: "invoice",
    account_country: "US",
    account_name: "SheetAPI",
    account_tax_ids: null,
    amount_due: amountDue,
    amount_paid: 0,
    amount_remaining: amountDue,
    amount_shipping: 0,
    application: null,
    application_fee_amount: null,
    attempt_count: 0,
    attempted: false,
    auto_advance: Boolean(input.id),
    automatic_tax: { enabled: false, liability: null, status: null },
    billing_reason: input.billingReason,
    charge: null,
    collection_method: "charge_automatically",
    created: input.created,
    currency: input.currency,
    custom_fields: null,
    customer: input.customer.id,
    customer_address: null,
    customer_email: input.customer.email,
    customer_name: input.customer.name,
    customer_phone: null,
    customer_shipping: null,
    customer_tax_exempt: "none",
    customer_tax_ids: [],
    default_payment_method: null,
    default_source: null,
    default_tax_rates: [],
    description: null,
    discount: null,
    discounts: [],
    due_date: null,
    effective_at: input.id ? input.created : null,
    ending_balance: input.id ? 0 : null,
    footer: null,
    from_invoice: null,
    hosted_invoice_url: input.id ? `${input.appUrl}/i/${input.id}` : null,
    invoice_pdf: input.id ? `${input.appUrl}/i/${input.id}/pdf` : null,
    issuer: { type: "self" },
    last_finalization_error: null,
    latest_revision: null,
    lines: listObject(input.id ? `/v1/invoices/${input.id}/lines` : "/v1/invoices/upcoming/lines", data),
    livemode: false,
    metadata: {},
    next_payment_attempt: null,
    number: input.number,
    on_behalf_of: null,
    paid: false,
    paid_out_of_band: false,
    payment_intent: null,
    payment_settings: { default_mandate: null, payment_method_options: null, payment_method_types: null },
    period_end: input.created,
    period_start: input.created,
    post_payment_credit_notes_amount: 0,
    pre_payment_credit_notes_amount: 0,
    quote: null,
    receipt_number: null,
    rendering: null,
    shipping_cost: null,
    shipping_details: null,
    starting_balance: 0,
    statement_descriptor: null,
    status: input.id ? "open" : "draft",
    status_transitions: {
      finalized_at: input.id ? input.created : null,
      marked_uncollectible_at: null,
      paid_at: null,
      voided_at: null,
    },
    subscription: input.subscription,
    subscription_details: { metadata: {} },
    subtotal: total,
    subtotal_excluding_tax: total,
    tax: null,
    test_clock: null,
    total,
    total_discount_amounts: [],
    total_excluding_tax: total,
    total_tax_amounts: [],
    transfer_data: null,
    webhooks_delivered_at: input.id ? input.created : null,
  } as Obj; // an upcoming invoice has no id, as Stripe shows it
}
