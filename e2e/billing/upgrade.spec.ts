// Paid plans through emulators/stripe, on a phone and a desktop: a new account upgrades through
// Checkout with a test card and a request the Free Trial refused then passes; a declined card
// changes nothing; the portal's upgrade applies at once; a payment that keeps failing, once Stripe ends its retries, returns the
// account to Free Trial, its key still answering within that plan.
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { registerSheet } from "../support/dashboard";
import { createSpreadsheet } from "../support/emulator-admin";
import { E2E } from "../support/env";
import { signIn } from "../support/google-consent";

const stripeAdmin = async (path: string, body?: unknown) => {
  const res = await fetch(
    `${E2E.stripeUrl}/__admin/${path}`,
    body === undefined ? {} : { method: "POST", body: JSON.stringify(body) },
  );
  expect(res.ok).toBe(true);
  return res.json() as Promise<Record<string, unknown>>;
};

/** Reloads the usage page until the plan shown is `label` (the plan moves when Stripe's webhook arrives). */
async function expectPlan(page: Page, label: string) {
  await expect(async () => {
    await page.goto("/dashboard/usage");
    await expect(page.getByTestId("plan-name")).toHaveText(label, { timeout: 1000 });
  }).toPass({ timeout: 30_000 });
}

/** Requests until the Free Trial's burst (5 a minute) refuses one: the refused status. */
async function exhaustBurst(request: APIRequestContext, url: string, key: string): Promise<number> {
  for (let i = 0; i < 6; i++) {
    const res = await request.get(url, { headers: { "X-API-Key": key } });
    if (res.status() === 429) return 429;
    expect(res.status()).toBe(200);
  }
  return 200;
}

async function payOnCheckout(page: Page, card: string) {
  await page.getByLabel("Card number").fill(card);
  await page.getByLabel("Expiration (MM / YY)").fill("12 / 34");
  await page.getByLabel("CVC").fill("123");
  await page.getByRole("button", { name: "Subscribe" }).click();
}

for (const width of [390, 1280]) {
  test(`upgrades through Stripe Checkout, and returns to Free Trial when payment fails for good (${width} px)`, async ({
    page,
    request,
  }, testInfo) => {
    test.setTimeout(180_000);
    await page.setViewportSize({ width, height: 900 });
    const email = `billing-${width}-${Date.now()}@example.com`;
    const sheetId = await createSpreadsheet(`Billing ${width}`);
    await signIn(page, email);
    const key = await registerSheet(page, sheetId);
    const rows = `/api/v1/${sheetId}/Items`;
    expect(await exhaustBurst(request, rows, key)).toBe(429);

    await page.goto("/dashboard/usage");
    await expect(page.getByTestId("plan-name")).toHaveText("Free Trial");
    await expect(page.getByTestId("plan-prices")).toContainText("Starter: $9 a month");
    await page.getByTestId("upgrade-starter").click();
    await page.waitForURL(new RegExp(`^${E2E.stripeUrl}/c/pay/`));
    await expect(page.getByTestId("checkout-amount")).toContainText("$9.00");

    // Declined: the page says so, and nothing changes.
    await payOnCheckout(page, "4000 0000 0000 9995");
    await expect(page.getByRole("alert")).toHaveText("Your card has insufficient funds.");
    await page.goto("/dashboard/usage");
    await expect(page.getByTestId("plan-name")).toHaveText("Free Trial");
    expect((await request.get(rows, { headers: { "X-API-Key": key } })).status()).toBe(429);

    await page.getByTestId("upgrade-starter").click();
    await page.waitForURL(new RegExp(`^${E2E.stripeUrl}/c/pay/`));
    await payOnCheckout(page, "4242 4242 4242 4242");
    await page.waitForURL(/\/dashboard\/usage\?checkout=done$/);
    await expectPlan(page, "Starter");
    // What the Free Trial refused, Starter allows (burst 20 a minute).
    expect((await request.get(rows, { headers: { "X-API-Key": key } })).status()).toBe(200);
    await expect(page.getByTestId("billing-status")).toHaveText("active");
    await expect(page.getByTestId("billing-next-invoice")).toContainText("$9");
    await expect(page.getByTestId("billing-invoices")).toContainText("paid");
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await page.screenshot({ path: testInfo.outputPath(`billing-${width}.png`), fullPage: true });
    // What a view of the panel costs in Stripe calls: the invoices and the next one (prices are kept).
    await fetch(`${E2E.stripeUrl}/__admin/calls`, { method: "DELETE" });
    await page.reload();
    await expect(page.getByTestId("billing-status")).toHaveText("active");
    const { calls } = (await (await fetch(`${E2E.stripeUrl}/__admin/calls`)).json()) as {
      calls: { method: string; path: string }[];
    };
    expect(calls.map((c) => `${c.method} ${c.path}`).sort()).toEqual(["GET /v1/invoices", "GET /v1/invoices/upcoming"]);
    await page.goto("/");
    await expect(page.getByTestId("plan-price-starter")).toHaveText("$9 a month");
    await expect(page.getByTestId("plan-price-business")).toHaveText("$99 a month");
    await page.goto("/dashboard/usage");

    // The portal: an upgrade applies at once, its prorated difference invoiced at once.
    await page.getByTestId("manage-billing").click();
    await page.waitForURL(new RegExp(`^${E2E.stripeUrl}/p/session/`));
    await expect(page.getByTestId("portal-plan")).toContainText("Starter");
    await page.getByLabel("Change plan").selectOption("price_business_monthly");
    await page.getByRole("button", { name: "Update plan" }).click();
    await expect(page.getByRole("status")).toHaveText("Plan upgraded.");
    await page.getByRole("link", { name: /Return to/ }).click();
    await page.waitForURL(/\/dashboard\/usage$/);
    await expectPlan(page, "Business");
    await expect(page.getByTestId("billing-invoices").locator("tr")).toHaveCount(2);
    await expect(page.getByTestId("billing-next-invoice")).toContainText("$99");

    // The card stops working; the renewal fails (past_due: the plan stays), then Stripe gives up.
    const { customers } = (await (
      await fetch(`${E2E.stripeUrl}/__admin/customers?email=${encodeURIComponent(email)}`)
    ).json()) as { customers: string[] };
    expect(customers).toHaveLength(1);
    await stripeAdmin("fail_payments", { customer: customers[0] });
    await stripeAdmin("advance", { seconds: 32 * 86_400 });
    await expect(async () => {
      await page.goto("/dashboard/usage");
      await expect(page.getByTestId("billing-past-due")).toBeVisible({ timeout: 1000 });
    }).toPass({ timeout: 30_000 });
    await expect(page.getByTestId("plan-name")).toHaveText("Business");
    await page.goto("/dashboard");
    await expect(page.getByTestId("payment-failed")).toBeVisible();
    await stripeAdmin("end_retries", {});
    await expectPlan(page, "Free Trial");
    const usage = await request.get("/billing/usage", { headers: { "X-API-Key": key } });
    expect(usage.status()).toBe(200);
    expect(
      ((await usage.json()) as { data: { plan: string; current_period: { requests_limit: number } } }).data
        .current_period.requests_limit,
    ).toBe(3_000);
  });
}
