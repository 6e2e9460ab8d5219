// The owner's first hour, third look (issue 41): what registering by address says comes next, the
// sample sheet, the Picker dialog, the dashboard's first button, 360 px, #fragment after sign-in.
import { randomUUID } from "node:crypto";
import { expect, test, type Page, type TestInfo } from "@playwright/test";
import { chooseFromDrive, clickInPicker, googlePicker, openRegisterForm, registerSheet } from "../support/dashboard";
import { createPrivateSpreadsheet, createSpreadsheet, shareSpreadsheet } from "../support/emulator-admin";
import { approveGoogleConsent, signIn } from "../support/google-consent";

/** A screenshot of the moment, attached to the report for a person to look at. */
async function shot(page: Page, testInfo: TestInfo, name: string) {
  await testInfo.attach(name, {
    body: await page.screenshot({ path: testInfo.outputPath(`${name}.png`) }),
    contentType: "image/png",
  });
}

const address = (id: string) => `https://docs.google.com/spreadsheets/d/${id}/edit#gid=0`;

async function pasteAddress(page: Page, value: string) {
  await openRegisterForm(page);
  await page.getByTestId("sheet-url").fill(value);
  await page.getByTestId("register-submit").click();
}

test("a pasted address of the owner's own sheet: the next step is choosing it in Drive, on that file; a mistyped id is named with what was typed", async ({
  page,
}, testInfo) => {
  const owner = "paste-own@example.com";
  await signIn(page, owner);
  await registerSheet(page, await createPrivateSpreadsheet(owner, "First sheet")); // connects Google
  const second = await createPrivateSpreadsheet(owner, "Second sheet");

  await pasteAddress(page, address(second));
  await expect(page.getByTestId("pick-prompt")).toContainText(
    `One more step: choose the spreadsheet ${second} in Google Drive`,
  );
  await expect(page.getByTestId("register-error")).toHaveCount(0);
  await page.getByTestId("pick-prompt").scrollIntoViewIfNeeded();
  await shot(page, testInfo, "pasted-own-sheet-next-step");
  await page.getByTestId("choose-pending").click();
  // Opened on that file only.
  await expect(googlePicker(page).locator("[data-file-id]")).toHaveCount(1);
  await clickInPicker(page, googlePicker(page).locator(`[data-file-id="${second}"]`));
  await expect(page.getByTestId("register-result")).toContainText("Second sheet");

  // One character off: no Picker showing nothing, but what was typed and where it was looked for.
  const typo = `${second.slice(0, -1)}${second.endsWith("x") ? "y" : "x"}`;
  page.once("dialog", (d) => void d.accept()); // the one-time key above was not copied
  await pasteAddress(page, address(typo));
  const error = page.getByTestId("register-error");
  await expect(error).toContainText(`No spreadsheet with the id ${typo} was found in the Google Drive of ${owner}`);
  await expect(error).toContainText(`You entered “${address(typo)}”`);
  await expect(page.getByTestId("pick-prompt")).toHaveCount(0);
  await shot(page, testInfo, "mistyped-id");
});

test("a sheet another account holds: who holds it, without their address, and what to do", async ({
  browser,
}, testInfo) => {
  const sheetId = await createSpreadsheet("Held sheet");
  const first = await (await browser.newContext()).newPage();
  await signIn(first, "holder-first@example.com");
  await registerSheet(first, sheetId);

  const second = await (await browser.newContext()).newPage();
  await signIn(second, "holder-second@example.com");
  await shareSpreadsheet(sheetId, { members: { "holder-second@example.com": "writer" } });
  await chooseFromDrive(second, sheetId);
  const error = second.getByTestId("register-error");
  await expect(error).toContainText("already registered by another SheetAPI account, which proved it can edit it");
  await expect(error).toContainText(
    "If the file is yours in Google Drive, choose it in Google Drive while signed in to Google as its owner",
  );
  await expect(error).toContainText("register a copy");
  await expect(error).not.toContainText("holder-first@example.com");
  await shot(second, testInfo, "held-by-another-account");
});

// Keys sent into the Picker's frame (another origin, as Google's is) have been seen to time out
// once on a loaded CI machine, not reproduced here under load: a try that fails gets two more.
test.describe.configure({ retries: 2 });

test("a new address's empty emulated Drive makes a sample spreadsheet to register; the Picker keeps focus and closes on Escape", async ({
  page,
}, testInfo) => {
  // A whole first visit: sign-in, Google's consent, the Picker twice and a registration.
  test.setTimeout(90_000);
  // A new address each try: an earlier try's consent already connected Google for its own.
  const owner = `empty-drive-${randomUUID().slice(0, 8)}@example.com`;
  await signIn(page, owner);
  await openRegisterForm(page);
  await page.getByTestId("connect-google").click();
  await approveGoogleConsent(page, owner);
  await page.waitForURL(/\/dashboard(\?picker=open)?$/);
  const picker = googlePicker(page);
  await expect(picker.getByText("No spreadsheets to show.")).toBeVisible();
  await shot(page, testInfo, "empty-drive-offers-a-sample");

  // A modal: focus starts inside, Tab does not leave it, Escape cancels.
  await expect(page.locator('[data-picker-overlay][role="dialog"][aria-modal="true"]')).toBeVisible();
  await expect(picker.locator("#create-sample")).toBeFocused();
  for (let i = 0; i < 4; i++) await page.keyboard.press("Tab");
  expect(await page.evaluate(() => document.activeElement?.tagName)).toBe("IFRAME");
  await page.keyboard.press("Escape");
  await expect(page.locator("[data-picker-overlay]")).toHaveCount(0);
  await expect(page.getByTestId("nothing-chosen")).toContainText(
    "use “Create a sample spreadsheet” in the Google Drive window",
  );
  await expect(page.getByTestId("nothing-chosen")).not.toContainText("Make one in Google Sheets");

  await page.getByTestId("choose-from-drive").click();
  await picker.getByRole("button", { name: "Create a sample spreadsheet" }).click();
  const sample = picker.locator("[data-file-id]", { hasText: "Sample contacts" });
  await clickInPicker(page, sample);
  await expect(page.getByTestId("register-result")).toContainText("Sample contacts");
  await expect(page.getByTestId("register-result")).toContainText("read and write");
});

test("the dashboard's first button comes early and has one name; the landing header keeps its words whole at 360 px", async ({
  page,
  browser,
}, testInfo) => {
  await signIn(page, "few-words@example.com");
  await openRegisterForm(page);
  const action = page.getByTestId("connect-google");
  await expect(action).toHaveText("Choose a sheet from Google Drive");
  await expect(page.getByText("Continue to Google")).toHaveCount(0);
  // Words of the page's own content before its first button (the account bar aside).
  const before = await action.evaluate((el) => {
    const range = document.createRange();
    range.setStart(document.querySelector("main")!, 0);
    range.setEndBefore(el);
    return range.toString().split(/\s+/).filter(Boolean).length;
  });
  expect(before, "words before the first button").toBeLessThan(60);
  await shot(page, testInfo, "new-account-dashboard");

  const visitor = await browser.newPage({ viewport: { width: 360, height: 780 } });
  await visitor.goto("/");
  for (const name of ["SheetAPI", "Plans", "Docs", "Sign in / Dashboard"]) {
    const lines = await visitor
      .locator("header")
      .getByText(name, { exact: true })
      .evaluate((el) => {
        const range = document.createRange();
        range.selectNodeContents(el);
        return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
      });
    expect(lines, `"${name}" on one line`).toBe(1);
  }
  await shot(visitor, testInfo, "landing-header-360");
  await visitor.close();
});

test("a #fragment survives sign-in", async ({ page }) => {
  await page.goto("/dashboard/usage#plan");
  await page.waitForURL(/\/signin/);
  await page.getByTestId("sign-in-google").click();
  await approveGoogleConsent(page, "fragment@example.com");
  await page.waitForURL(/\/dashboard\/usage#plan$/);
  await expect(page.getByTestId("plan")).toBeInViewport();
});
