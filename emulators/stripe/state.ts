// The emulator's account: customers, prices, checkout sessions, subscriptions, invoices and events
// on a clock tests can move. Money moves as Stripe's test cards say it does.
import { addMonths, customerObject, newId, priceObject, type Obj, type PriceSeed } from "./model";
import {
  checkoutSessionObject,
  invoiceObject,
  subscriptionItemObject,
  subscriptionObject,
  type InvoiceLine,
} from "./objects";
import { Refunds } from "./refunds";

/** Stripe's documented test cards (https://docs.stripe.com/testing). */
export const TEST_CARDS = {
  succeeds: "4242424242424242",
  attachesThenFails: "4000000000000341",
  insufficientFunds: "4000000000009995",
} as const;

export type CardOutcome = { ok: true; paymentMethod: string } | { ok: false; code: string; message: string };

/** Smart Retries, as a fixed schedule: days after the first failure at which payment is tried again. */
export const RETRY_DAYS = [3, 5, 7];
const DAY = 86_400;

export interface EventSink {
  (event: Obj): void;
}

interface Card {
  number: string;
  failsCharges: boolean;
  /** Charges still to fail before the card pays again (a temporary decline). */
  failNext: number;
}

export class StripeState {
  offsetSeconds = 0;
  readonly customers = new Map<string, Obj>();
  readonly prices = new Map<string, Obj>();
  readonly sessions = new Map<string, Obj>();
  readonly subscriptions = new Map<string, Obj>();
  readonly invoices = new Map<string, Obj>();
  readonly events = new Map<string, Obj>();
  readonly portalSessions = new Map<string, Obj>();
  readonly portalConfigurations = new Map<string, Obj>();
  readonly refunds = new Refunds(() => this.now());
  /** Cards by payment method id; their numbers never leave the emulator. */
  private readonly cards = new Map<string, Card>();
  /** Downgrades a subscription takes at its period's end (as a portal schedule does). */
  readonly pendingPrices = new Map<string, string>();
  /** Proration lines waiting for the subscription's next invoice. */
  private readonly pendingLines = new Map<string, InvoiceLine[]>();
  /** The price each checkout session sells. */
  private readonly sessionPrices = new Map<string, string>();
  /** When each failing invoice first failed: retries are counted from there. */
  private readonly firstFailures = new Map<string, number>();
  private invoiceNumber = 0;

  constructor(
    prices: PriceSeed[],
    private readonly baseUrl: () => string,
    private readonly emit: EventSink,
  ) {
    for (const seed of prices) this.prices.set(seed.id, priceObject(seed, this.now()));
  }

  now(): number {
    return Math.floor(Date.now() / 1000) + this.offsetSeconds;
  }

  event(type: string, object: Obj, previous?: Record<string, unknown>): void {
    const event: Obj = {
      id: newId("evt"),
      object: "event",
      api_version: "2024-04-10",
      created: this.now(),
      data: { object: structuredClone(object), ...(previous ? { previous_attributes: previous } : {}) },
      livemode: false,
      pending_webhooks: 0,
      request: { id: null, idempotency_key: null },
      type,
    };
    this.events.set(event.id, event);
    this.emit(event);
  }

  createCustomer(input: { email?: string; name?: string; metadata?: Record<string, string> }): Obj {
    const customer = customerObject(newId("cus"), this.now(), input);
    this.customers.set(customer.id, customer);
    this.event("customer.created", customer);
    return customer;
  }

  createCheckoutSession(input: {
    customer: string;
    price: Obj;
    successUrl: string;
    cancelUrl: string | null;
    clientReferenceId: string | null;
    metadata: Record<string, string>;
  }): Obj {
    const id = newId("cs_test");
    const session = checkoutSessionObject({ ...input, id, created: this.now(), url: `${this.baseUrl()}/c/pay/${id}` });
    this.sessions.set(id, session);
    this.sessionPrices.set(id, input.price.id);
    return session;
  }

  /** `POST /v1/checkout/sessions/{id}/expire`: an open session can no longer be paid. */
  expireCheckoutSession(session: Obj): void {
    Object.assign(session, { status: "expired", url: null });
    this.event("checkout.session.expired", session);
  }

  priceOfSession(sessionId: string): Obj {
    return this.prices.get(this.sessionPrices.get(sessionId)!)!;
  }

  /** A card entered on a hosted page: declined, attached (and maybe failing to charge later), or good. */
  attachCard(customerId: string, number: string): CardOutcome {
    const digits = number.replace(/\D/g, "");
    if (digits === TEST_CARDS.insufficientFunds)
      return { ok: false, code: "card_declined", message: "Your card has insufficient funds." };
    if (digits !== TEST_CARDS.succeeds && digits !== TEST_CARDS.attachesThenFails) {
      return {
        ok: false,
        code: "card_declined",
        message: "Your card was declined. Your request was in test mode, but used a non test card.",
      };
    }
    const paymentMethod = newId("pm");
    this.cards.set(paymentMethod, {
      number: digits,
      failsCharges: digits === TEST_CARDS.attachesThenFails,
      failNext: 0,
    });
    const customer = this.customers.get(customerId)!;
    (customer.invoice_settings as Record<string, unknown>).default_payment_method = paymentMethod;
    return { ok: true, paymentMethod };
  }

  cardLast4(paymentMethod: unknown): string | undefined {
    return typeof paymentMethod === "string" ? this.cards.get(paymentMethod)?.number.slice(-4) : undefined;
  }

  private customerCard(customerId: string): Card | undefined {
    const pm = (this.customers.get(customerId)?.invoice_settings as Record<string, unknown> | undefined)
      ?.default_payment_method;
    return typeof pm === "string" ? this.cards.get(pm) : undefined;
  }

  /** Makes every later charge on the customer's card fail, as a card that expired or was frozen does. */
  failPayments(customerId: string): boolean {
    const card = this.customerCard(customerId);
    if (card) card.failsCharges = true;
    return Boolean(card);
  }

  /** Makes the customer's next `count` charges fail, after which the card pays again. */
  failNextPayments(customerId: string, count: number): boolean {
    const card = this.customerCard(customerId);
    if (card) card.failNext += count;
    return Boolean(card);
  }

  private charge(paymentMethod: unknown): boolean {
    const card = typeof paymentMethod === "string" ? this.cards.get(paymentMethod) : undefined;
    if (!card || card.failsCharges) return false;
    if (card.failNext > 0) {
      card.failNext -= 1;
      return false;
    }
    return true;
  }

  /** The hosted Checkout page's submit: pays the first invoice, or changes nothing. */
  payCheckout(sessionId: string, cardNumber: string): CardOutcome {
    const session = this.sessions.get(sessionId)!;
    const customerId = session.customer as string;
    const card = this.attachCard(customerId, cardNumber);
    if (!card.ok) return card;
    if (!this.charge(card.paymentMethod))
      return { ok: false, code: "card_declined", message: "Your card was declined." };
    const price = this.priceOfSession(sessionId);
    const start = this.now();
    const subscription = subscriptionObject({
      id: newId("sub"),
      customer: customerId,
      price,
      start,
      periodEnd: addMonths(start, 1),
      paymentMethod: card.paymentMethod,
      metadata: session.metadata as Record<string, string>,
    });
    this.subscriptions.set(subscription.id, subscription);
    const invoice = this.openInvoice(subscription, "subscription_create", [this.periodLine(subscription, price)]);
    subscription.latest_invoice = invoice.id;
    this.event("invoice.created", invoice);
    this.event("invoice.finalized", invoice);
    this.markPaid(invoice);
    Object.assign(session, {
      status: "complete",
      url: null,
      payment_status: "paid",
      subscription: subscription.id,
      invoice: invoice.id,
      customer_details: {
        address: null,
        email: this.customers.get(customerId)!.email,
        name: null,
        phone: null,
        tax_exempt: "none",
        tax_ids: [],
      },
    });
    this.event("customer.subscription.created", subscription);
    this.event("invoice.paid", invoice);
    this.event("invoice.payment_succeeded", invoice);
    this.event("checkout.session.completed", session);
    return card;
  }

  private periodLine(subscription: Obj, price: Obj): InvoiceLine {
    const item = (subscription.items as { data: Obj[] }).data[0]!;
    return {
      amount: price.unit_amount as number,
      description: `1 × ${price.nickname ?? price.product} (at $${((price.unit_amount as number) / 100).toFixed(2)} / month)`,
      price,
      period: { start: subscription.current_period_start as number, end: subscription.current_period_end as number },
      proration: false,
      subscriptionItem: item.id,
    };
  }

  private openInvoice(subscription: Obj, billingReason: string, lines: InvoiceLine[]): Obj {
    const customer = this.customers.get(subscription.customer as string)!;
    this.invoiceNumber += 1;
    const invoice = invoiceObject({
      id: newId("in"),
      number: `${customer.invoice_prefix as string}-${String(this.invoiceNumber).padStart(4, "0")}`,
      customer,
      subscription: subscription.id,
      created: this.now(),
      billingReason,
      lines,
      currency: subscription.currency as string,
      appUrl: this.baseUrl(),
    });
    this.invoices.set(invoice.id, invoice);
    return invoice;
  }

  private markPaid(invoice: Obj): void {
    const now = this.now();
    if ((invoice.amount_due as number) > 0) {
      const { charge, paymentIntent } = this.refunds.charge(invoice.amount_due as number, invoice.currency as string);
      Object.assign(invoice, { charge, payment_intent: paymentIntent });
    }
    Object.assign(invoice, {
      status: "paid",
      paid: true,
      attempted: true,
      attempt_count: (invoice.attempt_count as number) + 1,
      amount_paid: invoice.amount_due,
      amount_remaining: 0,
      next_payment_attempt: null,
    });
    (invoice.status_transitions as Record<string, unknown>).paid_at = now;
  }

  /** One payment attempt of an open invoice; a failure schedules the next retry, or none after the last. */
  private attempt(invoice: Obj, subscription: Obj): boolean {
    if ((invoice.amount_due as number) === 0 || this.charge(subscription.default_payment_method)) {
      this.markPaid(invoice);
      this.event("invoice.paid", invoice);
      this.event("invoice.payment_succeeded", invoice);
      if (subscription.status === "past_due") this.setStatus(subscription, "active");
      return true;
    }
    const attempts = (invoice.attempt_count as number) + 1;
    const firstFailure = this.firstFailures.get(invoice.id) ?? this.now();
    this.firstFailures.set(invoice.id, firstFailure);
    const retryDay = RETRY_DAYS[attempts - 1];
    Object.assign(invoice, {
      attempted: true,
      attempt_count: attempts,
      next_payment_attempt: retryDay === undefined ? null : firstFailure + retryDay * DAY,
    });
    this.event("invoice.payment_failed", invoice);
    if (subscription.status === "active") this.setStatus(subscription, "past_due");
    return false;
  }

  private setStatus(subscription: Obj, status: string): void {
    const previous = { status: subscription.status };
    subscription.status = status;
    this.event("customer.subscription.updated", subscription, previous);
  }

  /** After the last retry: the subscription is canceled, as Stripe's default "cancel the subscription" setting does. */
  giveUp(subscription: Obj): void {
    const now = this.now();
    Object.assign(subscription, {
      status: "canceled",
      canceled_at: now,
      ended_at: now,
      cancellation_details: { comment: null, feedback: null, reason: "payment_failed" },
    });
    this.stopRetries(subscription);
    this.event("customer.subscription.deleted", subscription);
  }

  /** A canceled subscription's open invoices are not tried again. */
  private stopRetries(subscription: Obj): void {
    for (const invoice of this.invoices.values()) {
      if (invoice.subscription === subscription.id && invoice.status === "open") invoice.next_payment_attempt = null;
    }
  }

  /** Ends the retries of every past-due subscription (or the one named) at once. */
  endRetries(subscriptionId?: string): number {
    let ended = 0;
    for (const subscription of this.subscriptions.values()) {
      if (subscription.status !== "past_due" || (subscriptionId && subscription.id !== subscriptionId)) continue;
      this.giveUp(subscription);
      ended += 1;
    }
    return ended;
  }

  /** Moves the clock on and runs what came due: renewals, retries, cancellations at period end. */
  advance(seconds: number): void {
    const target = this.now() + seconds;
    // Step through due moments in order, so a month's renewal precedes the retries it causes.
    for (;;) {
      const next = this.nextDue();
      if (next === undefined || next > target) break;
      this.offsetSeconds += Math.max(0, next - this.now());
      this.runDue();
    }
    this.offsetSeconds += Math.max(0, target - this.now());
  }

  private nextDue(): number | undefined {
    const moments: number[] = [];
    for (const s of this.subscriptions.values())
      if (s.status === "active" || s.status === "past_due") moments.push(s.current_period_end as number);
    for (const i of this.invoices.values())
      if (i.status === "open" && typeof i.next_payment_attempt === "number") moments.push(i.next_payment_attempt);
    return moments.length ? Math.min(...moments) : undefined;
  }

  private runDue(): void {
    const now = this.now();
    for (const invoice of this.invoices.values()) {
      const subscription = this.subscriptions.get(invoice.subscription as string);
      if (
        !subscription ||
        invoice.status !== "open" ||
        typeof invoice.next_payment_attempt !== "number" ||
        invoice.next_payment_attempt > now
      )
        continue;
      if (subscription.status === "canceled") continue;
      if (this.attempt(invoice, subscription) === false && invoice.next_payment_attempt === null)
        this.giveUp(subscription);
    }
    for (const subscription of this.subscriptions.values()) {
      if (
        (subscription.status === "active" || subscription.status === "past_due") &&
        (subscription.current_period_end as number) <= now
      )
        this.renew(subscription);
    }
  }

  private renew(subscription: Obj): void {
    if (subscription.cancel_at_period_end) {
      const end = subscription.current_period_end as number;
      Object.assign(subscription, { status: "canceled", canceled_at: subscription.canceled_at ?? end, ended_at: end });
      this.stopRetries(subscription);
      this.event("customer.subscription.deleted", subscription);
      return;
    }
    const previous: Record<string, unknown> = {
      current_period_start: subscription.current_period_start,
      current_period_end: subscription.current_period_end,
    };
    const pending = this.pendingPrices.get(subscription.id);
    if (pending) {
      previous.items = structuredClone(subscription.items);
      this.setPrice(subscription, this.prices.get(pending)!);
      this.pendingPrices.delete(subscription.id);
    }
    const start = subscription.current_period_end as number;
    Object.assign(subscription, { current_period_start: start, current_period_end: addMonths(start, 1) });
    const price = (subscription.items as { data: Obj[] }).data[0]!.price as Obj;
    const lines = [...(this.pendingLines.get(subscription.id) ?? []), this.periodLine(subscription, price)];
    this.pendingLines.delete(subscription.id);
    const invoice = this.openInvoice(subscription, "subscription_cycle", lines);
    subscription.latest_invoice = invoice.id;
    this.event("customer.subscription.updated", subscription, previous);
    this.event("invoice.created", invoice);
    this.event("invoice.finalized", invoice);
    this.attempt(invoice, subscription);
  }

  private setPrice(subscription: Obj, price: Obj): void {
    const item = (subscription.items as { data: Obj[] }).data[0]!;
    item.price = price;
  }

  /**
   * A price change. Upgrades apply at once with prorations as Stripe computes them (unused time
   * of the old price credited, remaining time of the new one charged, to the second);
   * `always_invoice` bills them now, `create_prorations` on the next invoice, `none` not at all.
   */
  changePrice(subscription: Obj, price: Obj, prorationBehavior: string): Obj | undefined {
    const old = (subscription.items as { data: Obj[] }).data[0]!;
    const oldPrice = old.price as Obj;
    const previous = { items: structuredClone(subscription.items) };
    const now = this.now();
    const start = subscription.current_period_start as number;
    const end = subscription.current_period_end as number;
    const share = (end - now) / (end - start);
    this.setPrice(subscription, price);
    this.pendingPrices.delete(subscription.id);
    let invoice: Obj | undefined;
    if (prorationBehavior !== "none" && oldPrice.id !== price.id) {
      const period = { start: now, end };
      const lines: InvoiceLine[] = [
        {
          amount: -Math.round((oldPrice.unit_amount as number) * share),
          description: `Unused time on ${oldPrice.nickname ?? oldPrice.product}`,
          price: oldPrice,
          period,
          proration: true,
          subscriptionItem: old.id,
        },
        {
          amount: Math.round((price.unit_amount as number) * share),
          description: `Remaining time on ${price.nickname ?? price.product}`,
          price,
          period,
          proration: true,
          subscriptionItem: old.id,
        },
      ];
      if (prorationBehavior === "always_invoice") {
        invoice = this.openInvoice(subscription, "subscription_update", lines);
        subscription.latest_invoice = invoice.id;
      } else {
        this.pendingLines.set(subscription.id, [...(this.pendingLines.get(subscription.id) ?? []), ...lines]);
      }
    }
    this.event("customer.subscription.updated", subscription, previous);
    if (invoice) {
      this.event("invoice.created", invoice);
      this.event("invoice.finalized", invoice);
      this.attempt(invoice, subscription);
    }
    return invoice;
  }

  setCancelAtPeriodEnd(subscription: Obj, cancel: boolean): void {
    const previous = {
      cancel_at_period_end: subscription.cancel_at_period_end,
      cancel_at: subscription.cancel_at,
      canceled_at: subscription.canceled_at,
    };
    Object.assign(
      subscription,
      cancel
        ? { cancel_at_period_end: true, cancel_at: subscription.current_period_end, canceled_at: this.now() }
        : { cancel_at_period_end: false, cancel_at: null, canceled_at: null },
    );
    this.event("customer.subscription.updated", subscription, previous);
  }

  cancelNow(subscription: Obj, details: { comment?: string; feedback?: string } = {}): void {
    const now = this.now();
    Object.assign(subscription, {
      status: "canceled",
      canceled_at: now,
      ended_at: now,
      cancellation_details: {
        comment: details.comment ?? null,
        feedback: details.feedback ?? null,
        reason: "cancellation_requested",
      },
    });
    this.stopRetries(subscription);
    this.event("customer.subscription.deleted", subscription);
  }

  /** The invoice the subscription's next renewal would raise, as `GET /v1/invoices/upcoming` shows it. */
  upcomingInvoice(subscription: Obj): Obj | undefined {
    if (subscription.cancel_at_period_end || (subscription.status !== "active" && subscription.status !== "past_due"))
      return undefined;
    const pending = this.pendingPrices.get(subscription.id);
    const price = pending ? this.prices.get(pending)! : ((subscription.items as { data: Obj[] }).data[0]!.price as Obj);
    const start = subscription.current_period_end as number;
    const item = (subscription.items as { data: Obj[] }).data[0]!;
    const lines: InvoiceLine[] = [
      ...(this.pendingLines.get(subscription.id) ?? []),
      {
        amount: price.unit_amount as number,
        description: `1 × ${price.nickname ?? price.product}`,
        price,
        period: { start, end: addMonths(start, 1) },
        proration: false,
        subscriptionItem: item.id,
      },
    ];
    const invoice = invoiceObject({
      id: null,
      number: null,
      customer: this.customers.get(subscription.customer as string)!,
      subscription: subscription.id,
      created: start,
      billingReason: "upcoming",
      lines,
      currency: subscription.currency as string,
      appUrl: this.baseUrl(),
    });
    invoice.next_payment_attempt = start;
    return invoice;
  }

  newItemFor(subscription: Obj, price: Obj): Obj {
    return subscriptionItemObject(subscription.id, price, this.now());
  }
}
