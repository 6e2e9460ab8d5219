// emulators/stripe driven by the official client: every answer it gives (errors included) and
// every event it delivers must validate against Stripe's published OpenAPI description.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import Stripe from "stripe";
import { OPENAPI_VERSION, validateAnswer, validateEvent } from "./openapi-check";
import type { StripeEmulator } from "./server";
import { clientFor, payCheckout, startTestStripe, TEST_PRICES } from "./test-support";
import { signatureHeader } from "./webhooks";

const SECRET = "whsec_test_secret";
const answers: { method: string; path: string; status: number; body: unknown }[] = [];
const received: { event: Stripe.Event; signature: string; body: string }[] = [];
let failReceiver = 0;
let receiver: Server;
let emulator: StripeEmulator;
let stripe: Stripe;

beforeAll(async () => {
  receiver = createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString()));
    req.on("end", () => {
      if (failReceiver > 0) {
        failReceiver -= 1;
        res.writeHead(500).end();
        return;
      }
      received.push({
        event: JSON.parse(body) as Stripe.Event,
        signature: String(req.headers["stripe-signature"]),
        body,
      });
      res.writeHead(200).end("{}");
    });
  });
  await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  emulator = await startTestStripe({ webhooks: [{ url, secret: SECRET }], onAnswer: (a) => answers.push(a) });
  stripe = clientFor(emulator);
});

afterAll(async () => {
  await emulator.stop();
  await new Promise((r) => receiver.close(r));
});

afterEach(() => {
  // Every answer of the test, success or error, against the operation's schema.
  const errors = answers.flatMap((a) => validateAnswer(a.method, a.path, a.status, a.body));
  answers.length = 0;
  expect(errors).toEqual([]);
});

const settle = () => emulator.deliveries.settled();
const eventsOf = (customer: string) =>
  received.filter((r) => JSON.stringify(r.event.data.object).includes(customer)).map((r) => r.event);

async function subscribe(card = "4242 4242 4242 4242", price = TEST_PRICES[0]!.id) {
  const customer = await stripe.customers.create({ email: "owner@example.com", metadata: { account: "acct-1" } });
  const session = await stripe.checkout.sessions.create({
    mode: "subscription",
    customer: customer.id,
    line_items: [{ price, quantity: 1 }],
    success_url: "http://app.test/done?session={CHECKOUT_SESSION_ID}",
    cancel_url: "http://app.test/back",
  });
  const paid = await payCheckout(session.url!, card);
  return { customer, session, paid };
}

describe("emulators/stripe", () => {
  it("validates against Stripe's OpenAPI of the client's API version", () => {
    expect(OPENAPI_VERSION).toBe("2024-04-10");
    const pinned: Stripe.LatestApiVersion = "2024-04-10";
    expect(pinned).toBe(OPENAPI_VERSION);
    // The check itself refuses what Stripe does not describe.
    expect(
      validateAnswer("GET", "/v1/customers/cus_1", 200, {
        id: "cus_1",
        object: "customer",
        created: 1,
        livemode: false,
        invented: true,
      }),
    ).not.toEqual([]);
    expect(
      validateAnswer("GET", "/v1/customers/cus_1", 200, {
        id: "cus_1",
        object: "customer",
        created: "yesterday",
        livemode: false,
      }),
    ).not.toEqual([]);
  });

  it("subscribes through the hosted Checkout with 4242 4242 4242 4242 and sends signed events", async () => {
    const { customer, session, paid } = await subscribe();
    expect(paid.status).toBe(303);
    expect(paid.headers.get("location")).toBe(`http://app.test/done?session=${session.id}`);
    const done = await stripe.checkout.sessions.retrieve(session.id);
    expect(done).toMatchObject({ status: "complete", payment_status: "paid", customer: customer.id });
    const subscription = await stripe.subscriptions.retrieve(done.subscription as string);
    expect(subscription.status).toBe("active");
    expect(subscription.items.data[0]!.price.id).toBe(TEST_PRICES[0]!.id);
    expect(subscription.current_period_end - subscription.current_period_start).toBeGreaterThanOrEqual(28 * 86_400);
    const invoices = await stripe.invoices.list({ customer: customer.id });
    expect(invoices.data.map((i) => [i.status, i.amount_paid, i.billing_reason])).toEqual([
      ["paid", 900, "subscription_create"],
    ]);
    await settle();
    const events = eventsOf(customer.id);
    expect(events.map((e) => e.type)).toEqual(
      expect.arrayContaining(["customer.subscription.created", "invoice.paid", "checkout.session.completed"]),
    );
    for (const { event, signature, body } of received) {
      expect(validateEvent(event as never)).toEqual([]);
      // The official verifier accepts the signature; a changed body does not.
      expect(stripe.webhooks.constructEvent(body, signature, SECRET).id).toBe(event.id);
      expect(() => stripe.webhooks.constructEvent(body.replace("livemode", "liveMode"), signature, SECRET)).toThrow();
      const t = Number(/t=(\d+)/.exec(signature)![1]);
      expect(signature).toBe(signatureHeader(body, SECRET, t));
    }
    // Events are retrievable as Stripe keeps them.
    expect((await stripe.events.retrieve(events[0]!.id)).id).toBe(events[0]!.id);
  });

  it("declines 4000 0000 0000 9995 on the page and creates nothing", async () => {
    const { customer, session, paid } = await subscribe("4000000000009995");
    expect(paid.status).toBe(402);
    expect(await paid.text()).toContain("Your card has insufficient funds.");
    expect((await stripe.checkout.sessions.retrieve(session.id)).status).toBe("open");
    expect((await stripe.subscriptions.list({ customer: customer.id, status: "all" })).data).toEqual([]);
    expect((await stripe.invoices.list({ customer: customer.id })).data).toEqual([]);
  });

  it("attaches 4000 0000 0000 0341 but fails to charge it", async () => {
    const { customer, session, paid } = await subscribe("4000000000000341");
    expect(paid.status).toBe(402);
    expect(await paid.text()).toContain("Your card was declined.");
    expect((await stripe.checkout.sessions.retrieve(session.id)).status).toBe("open");
    expect(
      ((await stripe.customers.retrieve(customer.id)) as Stripe.Customer).invoice_settings.default_payment_method,
    ).toMatch(/^pm_/);
    expect((await stripe.subscriptions.list({ customer: customer.id, status: "all" })).data).toEqual([]);
  });

  it("renews monthly, and after failed payments and their retries cancels the subscription", async () => {
    const { customer } = await subscribe();
    const [subscription] = (await stripe.subscriptions.list({ customer: customer.id })).data;
    const firstEnd = subscription!.current_period_end;
    const upcoming = await stripe.invoices.retrieveUpcoming({ customer: customer.id });
    expect([upcoming.amount_due, upcoming.next_payment_attempt]).toEqual([900, firstEnd]);
    await fetch(`${emulator.url}/__admin/advance`, {
      method: "POST",
      body: JSON.stringify({ seconds: firstEnd - emulator.state.now() + 1 }),
    });
    const renewed = await stripe.subscriptions.retrieve(subscription!.id);
    expect([renewed.status, renewed.current_period_start]).toEqual(["active", firstEnd]);
    expect((await stripe.invoices.list({ customer: customer.id })).data.map((i) => i.status)).toEqual(["paid", "paid"]);
    // The card stops working: the next renewal fails, the subscription goes past_due, retries follow.
    await fetch(`${emulator.url}/__admin/fail_payments`, {
      method: "POST",
      body: JSON.stringify({ customer: customer.id }),
    });
    await fetch(`${emulator.url}/__admin/advance`, {
      method: "POST",
      body: JSON.stringify({ seconds: renewed.current_period_end - emulator.state.now() + 1 }),
    });
    expect((await stripe.subscriptions.retrieve(subscription!.id)).status).toBe("past_due");
    const [failing] = (await stripe.invoices.list({ customer: customer.id, limit: 1 })).data;
    expect([failing!.status, failing!.attempt_count, failing!.next_payment_attempt! - failing!.created]).toEqual([
      "open",
      1,
      3 * 86_400,
    ]);
    await fetch(`${emulator.url}/__admin/advance`, { method: "POST", body: JSON.stringify({ seconds: 8 * 86_400 }) });
    const ended = await stripe.subscriptions.retrieve(subscription!.id);
    expect(ended.status).toBe("canceled");
    expect((await stripe.invoices.retrieve(failing!.id)).attempt_count).toBe(4);
    await settle();
    const types = eventsOf(customer.id).map((e) => e.type);
    expect(types.filter((t) => t === "invoice.payment_failed")).toHaveLength(4);
    expect(types).toContain("customer.subscription.deleted");
    await expect(stripe.invoices.retrieveUpcoming({ customer: customer.id })).rejects.toMatchObject({
      statusCode: 404,
      code: "invoice_upcoming_none",
    });
  });

  it("prorates an upgrade to the second and bills it at once; cancels at the period's end", async () => {
    const { customer } = await subscribe();
    const [subscription] = (await stripe.subscriptions.list({ customer: customer.id })).data;
    const item = subscription!.items.data[0]!;
    const half = Math.floor((subscription!.current_period_end - emulator.state.now()) / 2);
    await fetch(`${emulator.url}/__admin/advance`, { method: "POST", body: JSON.stringify({ seconds: half }) });
    const share =
      (subscription!.current_period_end - emulator.state.now()) /
      (subscription!.current_period_end - subscription!.current_period_start);
    const upgraded = await stripe.subscriptions.update(subscription!.id, {
      items: [{ id: item.id, price: TEST_PRICES[2]!.id }],
      proration_behavior: "always_invoice",
    });
    expect(upgraded.items.data[0]!.price.id).toBe(TEST_PRICES[2]!.id);
    const [proration] = (await stripe.invoices.list({ customer: customer.id, limit: 1 })).data;
    expect(proration!.billing_reason).toBe("subscription_update");
    expect(proration!.amount_paid).toBe(Math.round(9900 * share) - Math.round(900 * share));
    expect(proration!.lines.data.every((l) => l.proration)).toBe(true);
    const canceling = await stripe.subscriptions.update(subscription!.id, { cancel_at_period_end: true });
    expect([canceling.status, canceling.cancel_at]).toEqual(["active", subscription!.current_period_end]);
    await fetch(`${emulator.url}/__admin/advance`, {
      method: "POST",
      body: JSON.stringify({ seconds: subscription!.current_period_end - emulator.state.now() }),
    });
    expect((await stripe.subscriptions.retrieve(subscription!.id)).status).toBe("canceled");
  });

  it("opens the customer portal, whose downgrade waits for the period's end", async () => {
    const { customer } = await subscribe("4242424242424242", TEST_PRICES[1]!.id);
    const portal = await stripe.billingPortal.sessions.create({
      customer: customer.id,
      return_url: "http://app.test/usage",
    });
    const page = await (await fetch(portal.url)).text();
    expect(page).toContain("Professional");
    expect(page).toContain("http://app.test/usage");
    const after = await (
      await fetch(`${portal.url}/update`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: `price=${TEST_PRICES[0]!.id}`,
      })
    ).text();
    expect(after).toContain("end of the period");
    const [subscription] = (await stripe.subscriptions.list({ customer: customer.id })).data;
    expect(subscription!.items.data[0]!.price.id).toBe(TEST_PRICES[1]!.id);
    expect((await stripe.invoices.retrieveUpcoming({ customer: customer.id })).amount_due).toBe(900);
  });

  it("retries a delivery the endpoint refused, with the same event id", async () => {
    failReceiver = 2;
    const { customer } = await subscribe();
    await settle();
    const attempts = emulator.deliveries.attempts.filter((a) => a.status === 500);
    expect(attempts.length).toBe(2);
    const retried = received.filter((r) => r.event.id === attempts[0]!.event);
    expect(retried).toHaveLength(1);
    expect(eventsOf(customer.id).length).toBeGreaterThan(0);
  });

  it("recovers a subscription whose renewal failed once when the retry pays", async () => {
    const { customer } = await subscribe();
    const [subscription] = (await stripe.subscriptions.list({ customer: customer.id })).data;
    await fetch(`${emulator.url}/__admin/fail_next_payment`, {
      method: "POST",
      body: JSON.stringify({ customer: customer.id }),
    });
    await fetch(`${emulator.url}/__admin/advance`, {
      method: "POST",
      body: JSON.stringify({ seconds: subscription!.current_period_end - emulator.state.now() + 1 }),
    });
    expect((await stripe.subscriptions.retrieve(subscription!.id)).status).toBe("past_due");
    await fetch(`${emulator.url}/__admin/advance`, { method: "POST", body: JSON.stringify({ seconds: 3 * 86_400 }) });
    expect((await stripe.subscriptions.retrieve(subscription!.id)).status).toBe("active");
    const [renewal] = (await stripe.invoices.list({ customer: customer.id, limit: 1 })).data;
    expect([renewal!.status, renewal!.attempt_count, renewal!.amount_paid]).toEqual(["paid", 2, 900]);
    await settle();
    const types = eventsOf(customer.id).map((e) => e.type);
    expect(types.filter((t) => t === "invoice.payment_failed")).toHaveLength(1);
    expect(types).not.toContain("customer.subscription.deleted");
  });

  it("stops retrying the open invoice of a subscription canceled while past due", async () => {
    const { customer } = await subscribe();
    const [subscription] = (await stripe.subscriptions.list({ customer: customer.id })).data;
    await fetch(`${emulator.url}/__admin/fail_payments`, {
      method: "POST",
      body: JSON.stringify({ customer: customer.id }),
    });
    await fetch(`${emulator.url}/__admin/advance`, {
      method: "POST",
      body: JSON.stringify({ seconds: subscription!.current_period_end - emulator.state.now() + 1 }),
    });
    expect((await stripe.subscriptions.retrieve(subscription!.id)).status).toBe("past_due");
    expect((await stripe.subscriptions.cancel(subscription!.id)).status).toBe("canceled");
    await fetch(`${emulator.url}/__admin/advance`, { method: "POST", body: JSON.stringify({ seconds: 10 * 86_400 }) });
    const [open] = (await stripe.invoices.list({ customer: customer.id, limit: 1 })).data;
    expect([open!.status, open!.attempt_count, open!.next_payment_attempt]).toEqual(["open", 1, null]);
  });

  it("answers errors in Stripe's shape", async () => {
    await expect(stripe.customers.retrieve("cus_missing")).rejects.toMatchObject({
      statusCode: 404,
      code: "resource_missing",
      type: "StripeInvalidRequestError",
    });
    const customer = await stripe.customers.create({});
    await expect(
      stripe.checkout.sessions.create({
        mode: "subscription",
        customer: customer.id,
        line_items: [{ price: "price_nope", quantity: 1 }],
        success_url: "http://x",
      }),
    ).rejects.toMatchObject({ statusCode: 404, param: "line_items[0][price]" });
    const wrongKey = new Stripe("sk_test_wrong", {
      host: "127.0.0.1",
      port: emulator.port,
      protocol: "http",
      maxNetworkRetries: 0,
    });
    await expect(wrongKey.customers.create({})).rejects.toMatchObject({ statusCode: 401 });
  });

  it("lists and expires Checkout sessions, refunds a paid invoice's charge, cancels with a comment, keeps portal configurations, replays idempotent requests", async () => {
    const customer = await stripe.customers.create({ email: "tabs@example.com" });
    const open = (price: string) =>
      stripe.checkout.sessions.create({
        mode: "subscription",
        customer: customer.id,
        line_items: [{ price, quantity: 1 }],
        success_url: "http://app.test/done",
      });
    const [first, second] = [await open(TEST_PRICES[2]!.id), await open(TEST_PRICES[0]!.id)];
    expect(
      (await stripe.checkout.sessions.list({ customer: customer.id, status: "open" })).data.map((x) => x.id).sort(),
    ).toEqual([first.id, second.id].sort());
    const expired = await stripe.checkout.sessions.expire(first.id);
    expect([expired.status, expired.url]).toEqual(["expired", null]);
    await expect(stripe.checkout.sessions.expire(first.id)).rejects.toMatchObject({ statusCode: 400 });
    expect(await (await payCheckout(first.url!, "4242424242424242")).text()).toContain("no longer active");
    expect((await payCheckout(second.url!, "4242424242424242")).status).toBe(303);
    expect((await stripe.checkout.sessions.list({ customer: customer.id, status: "open" })).data).toEqual([]);
    await expect(
      stripe.checkout.sessions.list({ customer: customer.id, status: "paid" as never }),
    ).rejects.toMatchObject({ statusCode: 400, param: "status" });

    const [subscription] = (await stripe.subscriptions.list({ customer: customer.id })).data;
    const [invoice] = (await stripe.invoices.list({ subscription: subscription!.id, status: "paid" })).data;
    expect([invoice!.charge, invoice!.payment_intent]).toEqual([
      expect.stringMatching(/^ch_/),
      expect.stringMatching(/^pi_/),
    ]);
    await expect(stripe.subscriptions.cancel(subscription!.id, { prorate: true })).rejects.toMatchObject({
      statusCode: 400,
      param: "prorate",
    });
    const canceled = await stripe.subscriptions.cancel(subscription!.id, {
      cancellation_details: { comment: "duplicate" },
    });
    expect([canceled.status, canceled.cancellation_details?.comment]).toEqual(["canceled", "duplicate"]);
    const refund = await stripe.refunds.create(
      { charge: invoice!.charge as string, amount: 500, reason: "duplicate" },
      { idempotencyKey: "refund-once" },
    );
    expect([refund.amount, refund.status, refund.payment_intent]).toEqual([500, "succeeded", invoice!.payment_intent]);
    // The same key and parameters replay the first answer; other parameters are refused.
    expect(
      (
        await stripe.refunds.create(
          { charge: invoice!.charge as string, amount: 500, reason: "duplicate" },
          { idempotencyKey: "refund-once" },
        )
      ).id,
    ).toBe(refund.id);
    await expect(
      stripe.refunds.create({ charge: invoice!.charge as string, amount: 100 }, { idempotencyKey: "refund-once" }),
    ).rejects.toMatchObject({ statusCode: 400, type: "StripeIdempotencyError" });
    await expect(
      stripe.refunds.create({ payment_intent: invoice!.payment_intent as string, amount: 401 }),
    ).rejects.toMatchObject({ statusCode: 400, param: "amount" });
    expect((await stripe.refunds.create({ payment_intent: invoice!.payment_intent as string })).amount).toBe(400);
    await expect(stripe.refunds.create({ charge: invoice!.charge as string })).rejects.toMatchObject({
      statusCode: 400,
      code: "charge_already_refunded",
    });
    expect((await stripe.refunds.list({ charge: invoice!.charge as string })).data.map((r) => r.amount).sort()).toEqual(
      [400, 500],
    );

    const configuration = await stripe.billingPortal.configurations.create({
      business_profile: { headline: "Plans" },
      features: {
        subscription_update: {
          enabled: true,
          default_allowed_updates: ["price"],
          products: [{ product: "prod_starter", prices: [TEST_PRICES[0]!.id] }],
          proration_behavior: "always_invoice",
        },
      },
      metadata: { mark: "one" },
    });
    expect(configuration.features.subscription_update).toMatchObject({
      enabled: true,
      proration_behavior: "always_invoice",
    });
    expect((await stripe.billingPortal.configurations.list({ active: true })).data.map((c) => c.id)).toContain(
      configuration.id,
    );
    expect(
      (await stripe.billingPortal.sessions.create({ customer: customer.id, configuration: configuration.id }))
        .configuration,
    ).toBe(configuration.id);
    await expect(
      stripe.billingPortal.sessions.create({ customer: customer.id, configuration: "bpc_missing" }),
    ).rejects.toMatchObject({ statusCode: 404 });
    await settle();
    expect(eventsOf(customer.id).map((e) => e.type)).toContain("checkout.session.expired");
    for (const event of eventsOf(customer.id)) expect(validateEvent(event as never)).toEqual([]);
  });
});
