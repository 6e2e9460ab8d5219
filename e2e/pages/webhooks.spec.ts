// The owner adds a webhook endpoint, sees deliveries arrive in the log, resends one and replays a
// time range; the page fits a phone and a desktop without sideways scrolling.
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test } from "@playwright/test";
import { Webhook } from "standardwebhooks";
import { registerSheet } from "../support/dashboard";
import { createSpreadsheet } from "../support/emulator-admin";
import { E2E } from "../support/env";
import { signIn } from "../support/google-consent";

test("an owner adds an endpoint, sees deliveries in the log, resends one and replays a range", async ({ page }) => {
  test.setTimeout(120_000);
  const got: { headers: IncomingHttpHeaders; body: string }[] = [];
  const receiver = createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString()));
    req.on("end", () => {
      got.push({ headers: req.headers, body });
      res.writeHead(200, { "content-type": "text/plain" }).end("thanks");
    });
  });
  await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
  const hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/sheet-hooks`;

  const sheetId = await createSpreadsheet("Webhook orders", [
    ["id", "name", "qty"],
    [1, "apple", 3],
  ]);
  await signIn(page, `hooks-${Date.now()}@example.com`);
  const key = await registerSheet(page, sheetId);

  await page.goto(`/dashboard/sheets/${sheetId}`);
  await page.getByTestId("webhooks-link").getByRole("link", { name: "Webhooks" }).click();
  await expect(page.getByRole("heading", { name: "Webhooks" })).toBeVisible();
  await expect(page.getByTestId("endpoint-allowance")).toContainText("0 of 1 endpoint on the Free Trial plan");

  // A private address is refused with a clear message.
  await page.getByTestId("endpoint-url").fill("http://169.254.169.254/latest/meta-data/");
  await page.getByTestId("add-endpoint").click();
  await expect(page.getByTestId("endpoint-error")).toContainText("link-local");

  await page.getByTestId("endpoint-url").fill(hookUrl);
  await page.getByTestId("add-endpoint").click();
  const secret = (await page.getByTestId("endpoint-secret-value").textContent())!.trim();
  expect(secret).toMatch(/^whsec_/);
  await page.getByRole("button", { name: "Done" }).click();
  await expect(page.getByTestId("endpoint-url-shown")).toHaveText(hookUrl);

  // A test event, before any row changes: sent at once, signed, and not an event of the sheet.
  await page.getByTestId("send-test-event").click();
  await expect(page.getByTestId("endpoint-message")).toHaveText(/^Test event delivered: HTTP 200 in \d+ ms\.$/);
  expect(
    (new Webhook(secret).verify(got[0]!.body, got[0]!.headers as Record<string, string>) as { type: string }).type,
  ).toBe("webhook.test");
  got.length = 0;

  // A write through the API: its event is delivered, signed with the secret shown once.
  const created = await fetch(`${E2E.baseUrl}/api/v1/${sheetId}/Items`, {
    method: "POST",
    headers: { "X-API-Key": key, "content-type": "application/json" },
    body: JSON.stringify({ name: "pear", qty: 5 }),
  });
  expect(created.status).toBe(201);
  await expect.poll(() => got.length, { timeout: 20_000 }).toBeGreaterThanOrEqual(1);
  const payload = new Webhook(secret).verify(got[0]!.body, got[0]!.headers as Record<string, string>) as {
    type: string;
    data: { row: Record<string, string>; source: string };
  };
  expect(payload).toMatchObject({
    type: "row.created",
    data: { row: { id: "2", name: "pear", qty: "5" }, source: "api" },
  });

  // The page updates itself: the delivery shows without a reload.
  await expect(page.getByTestId("delivery").first()).toHaveAttribute("data-state", "delivered", { timeout: 20_000 });
  await expect(page.getByTestId("delivery-state").first()).toHaveText("Delivered");
  const delivery = page.getByTestId("delivery").first();
  await expect(delivery).toContainText("row.created");
  await expect(delivery).toContainText("HTTP 200");
  await delivery.getByText("Request and answer").click();
  await expect(delivery.getByTestId("delivery-response")).toContainText("thanks");

  await delivery.getByTestId("resend").click();
  await expect.poll(() => got.length, { timeout: 20_000 }).toBe(2);
  expect(got[1]!.headers["webhook-id"]).toBe(got[0]!.headers["webhook-id"]);
  await expect(async () => {
    await page.reload();
    await expect(page.getByTestId("delivery")).toHaveCount(2, { timeout: 1000 });
  }).toPass({ timeout: 20_000 });

  // A replay of the last day sends the one event again, and says how many it queued.
  const local = (d: Date) => new Date(d.getTime() - d.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
  await page.getByText("Replay a time range").click();
  await page.getByLabel("From").fill(local(new Date(Date.now() - 86_400_000)));
  await page.getByLabel("To").fill(local(new Date(Date.now() + 86_400_000)));
  await page.getByRole("button", { name: "Replay", exact: true }).click();
  await expect(page.getByTestId("endpoint-message")).toHaveText("1 event queued again.");
  await expect.poll(() => got.length, { timeout: 20_000 }).toBe(3);
  expect(got[2]!.headers["webhook-id"]).toBe(got[0]!.headers["webhook-id"]);

  for (const size of [
    { width: 390, height: 844 },
    { width: 1280, height: 800 },
  ]) {
    await page.setViewportSize(size);
    await page.reload();
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow, `sideways scroll at ${size.width} px`).toBeLessThanOrEqual(0);
  }

  // Removing says what it does and can be cancelled.
  await page.getByRole("button", { name: `Remove the endpoint ${hookUrl}` }).click();
  await expect(page.getByTestId("remove-explained")).toContainText("cannot be undone");
  await page.getByTestId("cancel-remove").click();
  await expect(page.getByTestId("remove-explained")).toHaveCount(0);
  await page.getByRole("button", { name: `Remove the endpoint ${hookUrl}` }).click();
  await page.getByTestId("confirm-remove").click();
  await expect(page.getByTestId("endpoint")).toHaveCount(0);
  receiver.close();
});
