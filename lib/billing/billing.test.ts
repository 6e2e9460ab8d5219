// Billing against emulators/stripe: the plan follows the subscription whatever the order of
// Stripe's events, a repeated event changes nothing twice, a forged one is refused (400) and
// changes nothing, a failed payment keeps the plan while Stripe retries and its end returns the
// account to Free Trial; the month of a paid account is its subscription's period.
import { mkdtempSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { setDatabase, type DatabaseHandle } from "@/db/client";
import { getBillingAccount } from "@/db/queries/billing";
import { createUser, getUserById } from "@/db/queries/users";
import type { StripeEmulator } from "@/emulators/stripe/server";
import { clientFor, payCheckout, startTestStripe, TEST_PRICES, TEST_SECRET_KEY } from "@/emulators/stripe/test-support";
import { signatureHeader } from "@/emulators/stripe/webhooks";
import { accountLimits } from "@/lib/limits/accounts";
import { freshPglite } from "@/testing/databases";
import { POST } from "@/app/api/stripe/webhook/route";
import { openPortal, startCheckout } from "./checkout";
import { DUPLICATE_MARK, unusedShare } from "./duplicates";

const SECRET = "whsec_billing_test";
interface Delivery {
  body: string;
  signature: string;
  type: string;
  id: string;
}
const deliveries: Delivery[] = [];
let receiver: Server;
let emulator: StripeEmulator;
let handle: DatabaseHandle;

beforeAll(async () => {
  receiver = createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString()));
    req.on("end", () => {
      const event = JSON.parse(body) as { id: string; type: string };
      deliveries.push({ body, signature: String(req.headers["stripe-signature"]), type: event.type, id: event.id });
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
  emulator = await startTestStripe({
    webhooks: [{ url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/`, secret: SECRET }],
  });
  vi.stubEnv("DATA_DIR", mkdtempSync(join(tmpdir(), "sheetapi-billing-")));
  vi.stubEnv("STRIPE_SECRET_KEY", TEST_SECRET_KEY);
  vi.stubEnv("STRIPE_WEBHOOK_SECRET", SECRET);
  vi.stubEnv("STRIPE_API_URL", emulator.url);
  vi.stubEnv("STRIPE_PRICE_STARTER", TEST_PRICES[0]!.id);
  vi.stubEnv("STRIPE_PRICE_PROFESSIONAL", TEST_PRICES[1]!.id);
  vi.stubEnv("STRIPE_PRICE_BUSINESS", TEST_PRICES[2]!.id);
  handle = await freshPglite();
  setDatabase(handle);
});

afterAll(async () => {
  await emulator.stop();
  await new Promise((r) => receiver.close(r));
  await handle.close();
  vi.unstubAllEnvs();
});

/** Sends one delivery to the route, as Stripe would. */
async function send(delivery: Pick<Delivery, "body" | "signature">): Promise<Response> {
  return POST(
    new Request("http://localhost/api/stripe/webhook", {
      method: "POST",
      headers: { "content-type": "application/json; charset=utf-8", "stripe-signature": delivery.signature },
      body: delivery.body,
    }),
  );
}

/** What Stripe delivered since `from`, once every delivery is done. */
async function deliveredSince(from: number): Promise<Delivery[]> {
  await emulator.deliveries.settled();
  return deliveries.slice(from);
}

async function subscribedAccount(card = "4242424242424242") {
  const user = await createUser({ email: `owner-${Math.random()}@example.com` });
  const from = deliveries.length;
  const url = await startCheckout({ id: user.id, email: user.email }, "starter");
  const paid = await payCheckout(url, card);
  return { user, paid, events: await deliveredSince(from) };
}

const planOf = async (userId: string) => (await getUserById({ id: userId }))!.plan;

describe("billing through Stripe", () => {
  it("refuses forged and unsigned events with 400 and changes nothing", async () => {
    const { user, events } = await subscribedAccount();
    const completed = events.find((e) => e.type === "checkout.session.completed")!;
    const t = Math.floor(Date.now() / 1000);
    for (const forged of [
      { body: completed.body, signature: signatureHeader(completed.body, "whsec_someone_else", t) },
      { body: completed.body.replace('"status": "complete"', '"status": "completed"'), signature: completed.signature },
      { body: completed.body, signature: signatureHeader(completed.body, SECRET, t - 3600) },
      { body: completed.body, signature: "" },
    ]) {
      const res = await send(forged);
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ success: false, error: "validation_error" });
    }
    const junk = "not an event";
    const signedJunk = await send({ body: junk, signature: signatureHeader(junk, SECRET, t) });
    expect([signedJunk.status, ((await signedJunk.json()) as { message: string }).message]).toEqual([
      400,
      "The signed payload is not a Stripe event (not valid JSON).",
    ]);
    expect(await planOf(user.id)).toBe("free_trial");
    expect((await getBillingAccount({ userId: user.id }))!.status).toBeNull();
  });

  it("a signed event about a customer of no account here is ignored and changes nothing", async () => {
    const { user, events } = await subscribedAccount();
    const completed = events.find((e) => e.type === "checkout.session.completed")!;
    const event = JSON.parse(completed.body) as { id: string; data: { object: { customer: string } } };
    const stranger = JSON.stringify({
      ...event,
      id: `${event.id}_stranger`,
      data: { ...event.data, object: { ...event.data.object, customer: "cus_not_an_account_here" } },
    });
    const res = await send({
      body: stranger,
      signature: signatureHeader(stranger, SECRET, Math.floor(Date.now() / 1000)),
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ success: true, outcome: "ignored" });
    expect(await planOf(user.id)).toBe("free_trial");
  });

  it("moves the plan when Stripe says the subscription is active, in any order, once per event", async () => {
    const { user, events } = await subscribedAccount();
    expect(await planOf(user.id)).toBe("free_trial"); // the browser's return changes nothing
    const relevant = events.filter((e) =>
      ["checkout.session.completed", "customer.subscription.created", "invoice.paid"].includes(e.type),
    );
    expect(relevant).toHaveLength(3);
    for (const e of [...relevant].reverse()) expect((await send(e)).status).toBe(200);
    expect(await planOf(user.id)).toBe("starter");
    for (const e of relevant)
      expect(await (await send(e)).json()).toMatchObject({ success: true, outcome: "duplicate" });
    const billing = (await getBillingAccount({ userId: user.id }))!;
    expect(billing.status).toBe("active");
    // The month is the subscription's period, not the sign-up's.
    const account = await accountLimits(user.id);
    expect(account.plan).toBe("starter");
    expect(account.billingAnchor.getTime()).toBe(billing.currentPeriodStart!.getTime());
    expect(billing.currentPeriodEnd!.getTime() - billing.currentPeriodStart!.getTime()).toBeGreaterThanOrEqual(
      28 * 86_400_000,
    );
  });

  it("a declined card changes nothing", async () => {
    const { user, paid, events } = await subscribedAccount("4000000000009995");
    expect(paid.status).toBe(402);
    for (const e of events) expect((await send(e)).status).toBe(200);
    expect(await planOf(user.id)).toBe("free_trial");
    expect(events.map((e) => e.type)).not.toContain("customer.subscription.created");
  });

  it("keeps the plan while a failed payment is retried (past_due), then returns to Free Trial; a late old event does not bring it back", async () => {
    const { user, events } = await subscribedAccount();
    const created = events.find((e) => e.type === "customer.subscription.created")!;
    const paid = events.find((e) => e.type === "invoice.paid")!;
    expect((await send(paid)).status).toBe(200);
    expect(await planOf(user.id)).toBe("starter");
    const billing = (await getBillingAccount({ userId: user.id }))!;
    await fetch(`${emulator.url}/__admin/fail_payments`, {
      method: "POST",
      body: JSON.stringify({ customer: billing.stripeCustomerId }),
    });
    let from = deliveries.length;
    await fetch(`${emulator.url}/__admin/advance`, {
      method: "POST",
      body: JSON.stringify({ seconds: billing.currentPeriodEnd!.getTime() / 1000 - emulator.state.now() + 1 }),
    });
    const failing = (await deliveredSince(from)).filter((e) => e.body.includes(billing.stripeCustomerId));
    expect(failing.map((e) => e.type)).toContain("invoice.payment_failed");
    for (const e of failing) await send(e);
    expect(await planOf(user.id)).toBe("starter");
    expect((await getBillingAccount({ userId: user.id }))!.status).toBe("past_due");
    from = deliveries.length;
    await fetch(`${emulator.url}/__admin/end_retries`, { method: "POST", body: "{}" });
    const ended = (await deliveredSince(from)).filter((e) => e.body.includes(billing.stripeCustomerId));
    expect(ended.map((e) => e.type)).toEqual(["customer.subscription.deleted"]);
    await send(ended[0]!);
    expect(await planOf(user.id)).toBe("free_trial");
    expect((await getBillingAccount({ userId: user.id }))!.status).toBe("canceled");
    // The subscription's first event, delivered only now (Stripe does not order events).
    expect((await send(created)).status).toBe(200);
    expect(await planOf(user.id)).toBe("free_trial");
    const account = await accountLimits(user.id);
    expect([account.plan, account.billingAnchor.getTime()]).toEqual([
      "free_trial",
      (await getUserById({ id: user.id }))!.billingAnchor.getTime(),
    ]);
  });

  it("a payment that fails once and then succeeds on Stripe's retry keeps the plan throughout", async () => {
    const { user, events } = await subscribedAccount();
    for (const e of events) await send(e);
    const billing = (await getBillingAccount({ userId: user.id }))!;
    await fetch(`${emulator.url}/__admin/fail_next_payment`, {
      method: "POST",
      body: JSON.stringify({ customer: billing.stripeCustomerId }),
    });
    let from = deliveries.length;
    await fetch(`${emulator.url}/__admin/advance`, {
      method: "POST",
      body: JSON.stringify({ seconds: billing.currentPeriodEnd!.getTime() / 1000 - emulator.state.now() + 1 }),
    });
    for (const e of (await deliveredSince(from)).filter((d) => d.body.includes(billing.stripeCustomerId)))
      await send(e);
    expect([await planOf(user.id), (await getBillingAccount({ userId: user.id }))!.status]).toEqual([
      "starter",
      "past_due",
    ]);
    from = deliveries.length;
    await fetch(`${emulator.url}/__admin/advance`, { method: "POST", body: JSON.stringify({ seconds: 3 * 86_400 }) });
    const recovered = (await deliveredSince(from)).filter((d) => d.body.includes(billing.stripeCustomerId));
    expect(recovered.map((e) => e.type)).toContain("invoice.paid");
    for (const e of recovered) await send(e);
    const after = (await getBillingAccount({ userId: user.id }))!;
    expect([await planOf(user.id), after.status]).toEqual(["starter", "active"]);
    // The renewed period is the account's month now.
    expect(after.currentPeriodStart!.getTime()).toBe(billing.currentPeriodEnd!.getTime());
    expect((await accountLimits(user.id)).billingAnchor.getTime()).toBe(after.currentPeriodStart!.getTime());
  });

  it("refuses a second checkout when the first is paid but its webhook has not arrived yet", async () => {
    const { user } = await subscribedAccount();
    expect((await getBillingAccount({ userId: user.id }))!.status).toBeNull();
    await expect(startCheckout({ id: user.id, email: user.email }, "business")).rejects.toMatchObject({
      code: "conflict",
    });
  });

  it("keeps one Stripe customer per account, refuses a second checkout while subscribed, and opens the portal", async () => {
    const { user, events } = await subscribedAccount();
    for (const e of events) await send(e);
    await expect(startCheckout({ id: user.id, email: user.email }, "business")).rejects.toMatchObject({
      code: "conflict",
    });
    await expect(startCheckout({ id: user.id, email: user.email }, "constructor")).rejects.toMatchObject({
      code: "validation_error",
    });
    expect(await openPortal({ id: user.id })).toMatch(/\/p\/session\/bps_/);
    expect(
      [...emulator.state.customers.values()].filter(
        (c) => (c.metadata as Record<string, string>).account_id === user.id,
      ),
    ).toHaveLength(1);
  });

  it("two Checkout sessions opened before either is paid: opening the second expires the first, which can no longer be paid", async () => {
    const user = await createUser({ email: `tabs-${Math.random()}@example.com` });
    const first = await startCheckout({ id: user.id, email: user.email }, "business");
    const second = await startCheckout({ id: user.id, email: user.email }, "starter");
    const late = await payCheckout(first, "4242424242424242");
    expect(late.status).not.toBe(303);
    expect(await late.text()).toContain("no longer active");
    expect((await payCheckout(second, "4242424242424242")).status).toBe(303);
    const customer = (await getBillingAccount({ userId: user.id }))!.stripeCustomerId;
    expect([...emulator.state.subscriptions.values()].filter((x) => x.customer === customer)).toHaveLength(1);
  });

  it("a second paid subscription is canceled and refunded its unused part; the plan stays on the first, once however often events come", async () => {
    const user = await createUser({ email: `twice-${Math.random()}@example.com` });
    const from = deliveries.length;
    const business = await startCheckout({ id: user.id, email: user.email }, "business");
    const customer = (await getBillingAccount({ userId: user.id }))!.stripeCustomerId;
    // A session opened another way (before this version, or by a tab racing the expiry).
    const stripe = clientFor(emulator);
    const other = await stripe.checkout.sessions.create({
      mode: "subscription",
      customer,
      line_items: [{ price: TEST_PRICES[0]!.id, quantity: 1 }],
      success_url: "http://localhost/done",
    });
    expect((await payCheckout(business, "4242424242424242")).status).toBe(303);
    expect((await payCheckout(other.url!, "4242424242424242")).status).toBe(303);
    for (const e of await deliveredSince(from)) expect((await send(e)).status).toBe(200);
    expect(await planOf(user.id)).toBe("business");
    const subs = (await stripe.subscriptions.list({ customer, status: "all" })).data;
    const kept = subs.find((x) => x.status === "active")!;
    const dropped = subs.find((x) => x.status === "canceled")!;
    expect([subs.length, kept.items.data[0]!.price.id, dropped.cancellation_details?.comment]).toEqual([
      2,
      TEST_PRICES[2]!.id,
      `${DUPLICATE_MARK}${kept.id}`,
    ]);
    const invoice = await stripe.invoices.retrieve(dropped.latest_invoice as string);
    const refunds = (await stripe.refunds.list({ charge: invoice.charge as string })).data;
    expect(refunds.map((r) => [r.amount, r.reason])).toEqual([
      [
        unusedShare(
          900,
          { start: dropped.current_period_start, end: dropped.current_period_end },
          dropped.canceled_at!,
        ),
        "duplicate",
      ],
    ]);
    expect(refunds[0]!.amount).toBeGreaterThan(890);
    // The cancellation's own events, and any later one, refund nothing more.
    const after = (await deliveredSince(from)).filter((e) => e.type === "customer.subscription.deleted");
    expect(after).toHaveLength(1);
    expect((await send(after[0]!)).status).toBe(200);
    expect((await stripe.refunds.list({ charge: invoice.charge as string })).data).toHaveLength(1);
    const billing = (await getBillingAccount({ userId: user.id }))!;
    expect([billing.subscriptionId, billing.priceId, billing.status, await planOf(user.id)]).toEqual([
      kept.id,
      TEST_PRICES[2]!.id,
      "active",
      "business",
    ]);
  });

  it("an upgrade in the portal while the card fails gives nothing until it is paid; the portal is the service's configuration", async () => {
    const { user, events } = await subscribedAccount();
    for (const e of events) await send(e);
    const billing = (await getBillingAccount({ userId: user.id }))!;
    const portal = await openPortal({ id: user.id });
    const configuration = emulator.state.portalConfigurations.get(
      emulator.state.portalSessions.get(portal.split("/").pop()!)!.configuration as string,
    )!;
    expect(configuration.features).toMatchObject({
      subscription_update: {
        enabled: true,
        proration_behavior: "always_invoice",
        products: TEST_PRICES.map((p) => ({ product: p.product, prices: [p.id] })),
      },
    });
    await fetch(`${emulator.url}/__admin/fail_payments`, {
      method: "POST",
      body: JSON.stringify({ customer: billing.stripeCustomerId }),
    });
    let from = deliveries.length;
    const form = { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" } };
    expect(await (await fetch(`${portal}/update`, { ...form, body: `price=${TEST_PRICES[2]!.id}` })).text()).toContain(
      "Plan upgraded.",
    );
    for (const e of (await deliveredSince(from)).filter((d) => d.body.includes(billing.stripeCustomerId)))
      await send(e);
    const pastDue = (await getBillingAccount({ userId: user.id }))!;
    expect([pastDue.status, pastDue.priceId, await planOf(user.id), (await accountLimits(user.id)).plan]).toEqual([
      "past_due",
      TEST_PRICES[2]!.id,
      "starter",
      "starter",
    ]);
    // A working card, and Stripe's retry pays the upgrade: Business from then on.
    await fetch(`${portal}/card`, { ...form, body: "cardNumber=4242424242424242" });
    from = deliveries.length;
    await fetch(`${emulator.url}/__admin/advance`, { method: "POST", body: JSON.stringify({ seconds: 3 * 86_400 }) });
    for (const e of (await deliveredSince(from)).filter((d) => d.body.includes(billing.stripeCustomerId)))
      await send(e);
    expect([(await getBillingAccount({ userId: user.id }))!.status, await planOf(user.id)]).toEqual([
      "active",
      "business",
    ]);
  });
});
