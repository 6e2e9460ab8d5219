// An owner's first visit: sign up through Google, try the demo sheet's address (refused: nothing
// proves access yet), connect Google and choose it in the Picker, see its structure, register a
// private sheet through /auth/google, sign out and back in.
import { expect, test } from "@playwright/test";
import { E2E } from "../support/env";
import { chooseFromDrive, clickInPicker, copyNewKey, googlePicker, openRegisterForm } from "../support/dashboard";
import { approveGoogleConsent, signIn } from "../support/google-consent";

test("sign up, register public and private sheets, sign out, sign in", async ({ page, request }) => {
  await page.goto("/");
  await page.getByTestId("sign-in").click();
  await page.waitForURL(/\/signin/);
  await page.getByTestId("sign-in-google").click();
  await approveGoogleConsent(page, "owner@example.com");
  await page.waitForURL(/\/dashboard$/);
  await expect(page.getByTestId("account-email")).toHaveText("owner@example.com");

  await openRegisterForm(page);
  // A bad address is refused with a message for people, and stays in the field.
  await page.getByTestId("sheet-url").fill("https://example.com/not-a-sheet");
  await page.getByTestId("register-submit").click();
  await expect(page.getByTestId("register-error")).toContainText("not a Google Sheets address");
  await expect(page.getByTestId("sheet-url")).toHaveValue("https://example.com/not-a-sheet");

  // A real address proves nothing on its own, and before Google is connected that is the usual
  // first step, not a failure: the next step is offered on that sheet, with no red box.
  const demoAddress = `https://docs.google.com/spreadsheets/d/${E2E.demoSheetId}/edit#gid=0`;
  await page.getByTestId("sheet-url").fill(demoAddress);
  await page.getByTestId("register-submit").click();
  await expect(page.getByTestId("pick-prompt")).toContainText(
    `One more step: choose the spreadsheet ${E2E.demoSheetId} in Google Drive`,
  );
  await expect(page.getByTestId("register-error")).toHaveCount(0);
  await expect(page.getByText("on the dashboard")).toHaveCount(0);
  await expect(page.getByTestId("sheet-url")).toHaveValue(demoAddress);
  await expect(page.getByTestId("connect-google-pending")).toHaveAttribute(
    "href",
    `/auth/google?sheet_url=${E2E.demoSheetId}`,
  );

  // The demo sheet, chosen in Google Drive after connecting Google: the key is shown once.
  await chooseFromDrive(page, E2E.demoSheetId, "owner@example.com");
  await expect(page.getByTestId("register-result")).toContainText("Acme Store");
  await expect(page.getByTestId("register-result")).toContainText("read and write");
  const key = await copyNewKey(page);
  expect(key).toMatch(/^shk_/);

  // The key reads the schema through the API.
  const schema = await request.get(`/api/${E2E.demoSheetId}/schema`, { headers: { "X-API-Key": key } });
  expect(schema.status()).toBe(200);
  expect((await schema.json()).data.tabs.map((t: { name: string }) => t.name)).toEqual([
    "Products",
    "Team Members",
    "Orders",
  ]);

  await page.getByTestId("register-result").getByRole("link", { name: "Acme Store" }).click();
  await page.waitForURL(new RegExp(`/dashboard/sheets/${E2E.demoSheetId}$`));
  await expect(page.getByTestId("tab-name")).toHaveText(["Products", "Team Members", "Orders"]);
  const products = page.getByTestId("tab").filter({ hasText: "Products" });
  await expect(products.getByTestId("column")).toHaveCount(7);
  await expect(products.getByTestId("column").filter({ hasText: "price" })).toContainText("currency");
  await page.getByTestId("refresh-schema").click();
  await expect(page.getByRole("status").filter({ hasText: "Refreshed" })).toContainText("3 tabs");

  // An address that asked for the sheet, reloaded once it is registered, asks for nothing more.
  await page.goto(`/dashboard?pick=${E2E.demoSheetId}&via=grant`);
  await expect(page.getByTestId("sheet-list")).toContainText("Acme Store");
  await expect(page.getByTestId("pick-prompt")).toHaveCount(0);

  // A private sheet through the owner's own Google grant: the grant exists, so Google's consent
  // is not shown again; Google has not confirmed this sheet yet, so the Picker asks for it.
  await page.goto(
    `/auth/google?sheet_url=${encodeURIComponent(`https://docs.google.com/spreadsheets/d/${E2E.privateSheetId}/edit`)}`,
  );
  await page.waitForURL(/\/dashboard\?pick=/);
  await expect(page.getByTestId("pick-prompt")).toContainText(E2E.privateSheetId);
  await openRegisterForm(page);
  await page.getByTestId("choose-pending").click();
  // Only the sheet asked for is offered.
  await expect(googlePicker(page).locator("[data-file-id]")).toHaveCount(1);
  await clickInPicker(page, googlePicker(page).locator(`[data-file-id="${E2E.privateSheetId}"]`));
  await expect(page.getByTestId("register-result")).toContainText("Private Budget");
  await expect(page.getByTestId("new-key-value")).toHaveText(/^shk_/);
  await copyNewKey(page);
  await page.getByTestId("register-result").getByRole("link", { name: "Private Budget" }).click();
  await expect(page.getByTestId("sheet-name")).toHaveText("Private Budget");
  await expect(page.getByTestId("tab-name")).toHaveText(["Budget"]);
  // Shown once: the sheet page does not have it.
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
