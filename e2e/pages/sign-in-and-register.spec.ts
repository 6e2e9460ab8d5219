// An owner's first visit: sign up through Google, register the demo sheet by address, see its
// structure, register a private sheet through /auth/google, sign out and back in.
import { expect, test } from "@playwright/test";
import { E2E } from "../support/env";
import { approveGoogleConsent, signIn } from "../support/google-consent";

test("sign up, register public and private sheets, sign out, sign in", async ({ page, request }) => {
  await page.goto("/");
  await page.getByTestId("sign-in").click();
  await page.waitForURL(/\/signin/);
  await page.getByTestId("sign-in-google").click();
  await approveGoogleConsent(page, "owner@example.com");
  await page.waitForURL(/\/dashboard$/);
  await expect(page.getByTestId("account-email")).toHaveText("owner@example.com");

  // A bad address is refused with a clear message.
  await page.getByTestId("sheet-url").fill("https://example.com/not-a-sheet");
  await page.getByTestId("register-submit").click();
  await expect(page.getByTestId("register-error")).toContainText("Google Sheets address");

  // The demo sheet, by its address: the key is shown once.
  await page.getByTestId("sheet-url").fill(`https://docs.google.com/spreadsheets/d/${E2E.demoSheetId}/edit#gid=0`);
  await page.getByTestId("register-submit").click();
  await expect(page.getByTestId("register-result")).toContainText("Acme Store");
  const key = (await page.getByTestId("new-key-value").textContent())!.trim();
  expect(key).toMatch(/^shk_/);

  // The key reads the schema through the API.
  const schema = await request.get(`/api/${E2E.demoSheetId}/schema`, { headers: { "X-API-Key": key } });
  expect(schema.status()).toBe(200);
  expect((await schema.json()).data.tabs.map((t: { name: string }) => t.name)).toEqual(["Products", "Team Members", "Orders"]);

  await page.getByTestId("register-result").getByRole("link", { name: "Acme Store" }).click();
  await page.waitForURL(new RegExp(`/dashboard/sheets/${E2E.demoSheetId}$`));
  await expect(page.getByTestId("tab-name")).toHaveText(["Products", "Team Members", "Orders"]);
  const products = page.getByTestId("tab").filter({ hasText: "Products" });
  await expect(products.getByTestId("column")).toHaveCount(7);
  await expect(products.getByTestId("column").filter({ hasText: "price" })).toContainText("currency");
  await page.getByTestId("refresh-schema").click();
  await expect(page.getByRole("status").filter({ hasText: "Refreshed" })).toContainText("3 tabs");

  // A private sheet through the owner's own Google grant.
  await page.goto(`/auth/google?sheet_url=${encodeURIComponent(`https://docs.google.com/spreadsheets/d/${E2E.privateSheetId}/edit`)}`);
  await expect(page.getByText("spreadsheets", { exact: false }).first()).toBeVisible();
  await approveGoogleConsent(page, "owner@example.com");
  await page.waitForURL(new RegExp(`/dashboard/sheets/${E2E.privateSheetId}$`));
  await expect(page.getByTestId("sheet-name")).toHaveText("Private Budget");
  await expect(page.getByTestId("tab-name")).toHaveText(["Budget"]);
  await expect(page.getByTestId("new-key-value")).toHaveText(/^shk_/);
  // Shown once: a reload no longer has it.
  await page.reload();
  await expect(page.getByTestId("sheet-name")).toHaveText("Private Budget");
  await expect(page.getByTestId("new-key")).toHaveCount(0);

  await page.getByTestId("sign-out").click();
  await page.waitForURL(`${E2E.baseUrl}/`);
  await page.goto("/dashboard");
  await page.waitForURL(/\/signin/);

  await signIn(page, "owner@example.com");
  await expect(page.getByTestId("sheet-list")).toContainText("Acme Store");
  await expect(page.getByTestId("sheet-list")).toContainText("Private Budget");
  await page.screenshot({ path: "test-results/dashboard.png", fullPage: true });
});
