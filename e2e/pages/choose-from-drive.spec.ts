// "Choose a sheet from Google Drive" end to end against the emulator's Google Picker, at phone and
// desktop widths; a scope unticked on Google's consent screen; B cannot take C's sheet from the
// dashboard; C's edit proof claims B's view-only registration, whose key then answers 401.
import { expect, test, type Page, type TestInfo } from "@playwright/test";
import { chooseFromDrive, clickInPicker, copyNewKey, googlePicker, openRegisterForm } from "../support/dashboard";
import { createPrivateSpreadsheet, createSpreadsheet, shareSpreadsheet } from "../support/emulator-admin";
import { approveGoogleConsent, signIn } from "../support/google-consent";

/** A full-page screenshot, kept in the test's output folder and attached to its report. */
async function shot(page: Page, testInfo: TestInfo, name: string) {
  const path = testInfo.outputPath(`${name}.png`);
  await page.screenshot({ path, fullPage: true });
  await testInfo.attach(name, { path, contentType: "image/png" });
}

for (const [label, width, height] of [
  ["phone", 390, 844],
  ["desktop", 1280, 900],
] as const) {
  test(`choose a sheet from Google Drive (${label}, ${width}px)`, async ({ page }, testInfo) => {
    test.setTimeout(60_000); // Google's consent, the Picker twice and four screenshots
    await page.setViewportSize({ width, height });
    const email = `drive-${label}@example.com`;
    const sheetId = await createSpreadsheet(`Inventory (${label})`);
    await shareSpreadsheet(sheetId, { members: { [email]: "owner" } });
    await signIn(page, email);
    await openRegisterForm(page);
    // A new account is told the way to its first call.
    await expect(page.getByTestId("first-steps")).toContainText("No sheets yet. Choose a spreadsheet below");
    await expect(page.getByTestId("scopes-explained")).toBeVisible();
    await shot(page, testInfo, `1-register-form-${label}`);

    await page.getByTestId("connect-google").click();
    await expect(page.getByText("See, edit, create and delete only the specific Google Drive files")).toBeVisible();
    await shot(page, testInfo, `2-google-consent-${label}`);
    await approveGoogleConsent(page, email);
    await page.waitForURL(/\/dashboard(\?picker=open)?$/);

    // The Picker opens by itself on return, listing this person's spreadsheets.
    const picker = googlePicker(page);
    await expect(picker.locator(`[data-file-id="${sheetId}"]`)).toBeVisible();
    await shot(page, testInfo, `3-google-picker-${label}`);
    await picker.locator(`[data-file-id="${sheetId}"]`).click();

    await expect(page.getByTestId("register-result")).toContainText(`Inventory (${label})`);
    await expect(page.getByTestId("register-result")).toContainText("read and write");
    // The Picker's frame had the focus: it lands on the result, not on the page's body.
    await expect(page.getByTestId("register-result")).toBeFocused();
    await expect(page.getByTestId("new-key-value")).toHaveText(/^shk_/);
    await copyNewKey(page);
    await expect(page.getByTestId("google-account")).toHaveText(`as ${email}`);
    await shot(page, testInfo, `4-registered-${label}`);

    // The same person's second sheet: no consent again, the Picker opens straight away.
    const second = await createSpreadsheet(`Second (${label})`);
    await shareSpreadsheet(second, { members: { [email]: "owner" } });
    await page.goto("/dashboard");
    await chooseFromDrive(page, second);
    await expect(page.getByTestId("register-result")).toContainText(`Second (${label})`);
  });
}

test("a scope unticked on Google's consent screen is named, with the way to fix it", async ({ page }) => {
  await signIn(page, "unticks@example.com");
  await openRegisterForm(page);
  await page.getByTestId("connect-google").click();
  await page.getByRole("checkbox").uncheck();
  await approveGoogleConsent(page, "unticks@example.com");
  await page.waitForURL(/\/dashboard\?error=/);
  await expect(page.getByTestId("dashboard-error")).toContainText("https://www.googleapis.com/auth/drive.file");
  await expect(page.getByTestId("dashboard-error")).toContainText("leave it ticked");
  // Still not connected: the explanation and the way to Google are offered again.
  await expect(page.getByTestId("connect-google")).toBeVisible();
});

test("B cannot register C's sheet; C's edit proof claims B's view-only registration", async ({ browser }) => {
  test.setTimeout(90_000); // two people, three sheets, each through Google's consent and Picker
  const sheetId = await createSpreadsheet("C's orders");
  await shareSpreadsheet(sheetId, { members: { "carol@example.com": "owner" }, linkAccess: "reader" });
  const address = `https://docs.google.com/spreadsheets/d/${sheetId}/edit`;

  const bob = await (await browser.newContext()).newPage();
  await signIn(bob, "bob@example.com");
  // By address, before and after connecting Google: refused.
  await openRegisterForm(bob);
  await bob.getByTestId("sheet-url").fill(address);
  await bob.getByTestId("register-submit").click();
  await expect(bob.getByTestId("pick-prompt")).toContainText(
    `One more step: choose the spreadsheet ${sheetId} in Google Drive`,
  );
  await bob.getByTestId("connect-google").click();
  await approveGoogleConsent(bob, "bob@example.com");
  await bob.waitForURL(/\/dashboard(\?picker=open)?$/);
  // Bob's own Drive does not list Carol's sheet; closed without a choice, the page says where it may be.
  await expect(googlePicker(bob).getByText("No spreadsheets to show.")).toBeVisible();
  await clickInPicker(bob, googlePicker(bob).getByRole("button", { name: "Cancel" }));
  await expect(bob.getByTestId("nothing-chosen")).toContainText(
    "Google Drive lists only the spreadsheets the Google account bob@example.com can open",
  );
  await expect(bob.getByTestId("nothing-chosen")).toContainText("its owner has not shared it with this one yet");
  await expect(bob.getByTestId("nothing-chosen")).toBeFocused();
  await bob.getByTestId("sheet-url").fill(address);
  await bob.getByTestId("register-submit").click();
  // Not a failure: choosing it in Google Drive is the next step, offered on that very sheet.
  await expect(bob.getByTestId("pick-prompt")).toContainText(
    `One more step: choose the spreadsheet ${sheetId} in Google Drive`,
  );
  await expect(bob.getByTestId("register-error")).toHaveCount(0);
  await expect(bob.getByTestId("sheet-url")).toHaveValue(address);
  // The Picker offered for it opens on that sheet, though a whole address was pasted.
  await bob.getByTestId("choose-pending").click();
  await expect(googlePicker(bob).locator(`[data-file-id="${sheetId}"]`)).toBeVisible();
  await clickInPicker(bob, googlePicker(bob).getByRole("button", { name: "Cancel" }));
  const refused = await bob.request.post("/register", { data: { sheet_url: address } });
  expect(refused.status()).toBe(403);

  // Through the private flow, a sheet of Carol's shared only with the service account: Bob's
  // Picker has nothing to offer for it, and nothing is registered.
  const privateOne = await createSpreadsheet("C's private ledger");
  await shareSpreadsheet(privateOne, { members: { "carol@example.com": "owner" } });
  await bob.goto(`/auth/google?sheet_url=${privateOne}`);
  await bob.waitForURL(/\/dashboard\?pick=/);
  await openRegisterForm(bob);
  await bob.getByTestId("choose-pending").click();
  await expect(googlePicker(bob).getByText("No spreadsheets to show.")).toBeVisible();
  await clickInPicker(bob, googlePicker(bob).getByRole("button", { name: "Cancel" }));
  expect((await bob.request.post("/register", { data: { sheet_url: privateOne } })).status()).toBe(403);

  // Anyone with the link can view it, Bob included: through the private flow he picks it, and
  // Google confirms view access only, so his registration is read-only.
  await bob.goto(`/auth/google?sheet_url=${sheetId}`);
  await bob.waitForURL(/\/dashboard\?pick=/);
  await openRegisterForm(bob);
  await bob.getByTestId("choose-pending").click();
  await clickInPicker(bob, googlePicker(bob).locator(`[data-file-id="${sheetId}"]`));
  await expect(bob.getByTestId("register-result")).toContainText("read-only");
  const bobKey = await copyNewKey(bob);
  expect((await bob.request.get(`/api/v1/${sheetId}/Items`, { headers: { "X-API-Key": bobKey } })).status()).toBe(200);

  // Carol, its owner, chooses it in her Picker: edit beats view.
  const carol = await (await browser.newContext()).newPage();
  await signIn(carol, "carol@example.com");
  await chooseFromDrive(carol, sheetId, "carol@example.com");
  await expect(carol.getByTestId("register-result")).toContainText("read and write");

  const afterClaim = await bob.request.get(`/api/v1/${sheetId}/Items`, { headers: { "X-API-Key": bobKey } });
  expect(afterClaim.status()).toBe(401);
  expect((await afterClaim.json()).message).toContain(
    "claimed by another account that proved with Google that it can edit it",
  );
  await bob.goto("/dashboard");
  await expect(bob.getByTestId("claimed-notice")).toContainText("C's orders");
  await expect(bob.getByTestId("claimed-notice")).toContainText("can edit the spreadsheet");
  // The sheet's own page says the same, inside the dashboard; an id never registered is "not in your account".
  await bob.goto(`/dashboard/sheets/${sheetId}`);
  await expect(bob.getByTestId("claimed-notice")).toContainText("C's orders");
  const unknown = await bob.goto(`/dashboard/sheets/${privateOne}`);
  expect(unknown?.status()).toBe(404);
  await expect(bob.getByTestId("sheet-not-found")).toContainText("No such sheet in your account");
  await expect(bob.getByRole("banner")).toHaveCount(1);
});

test("an editor's public sheet the service account may only view is read-only, and the page offers writes through the editor's Google account", async ({
  page,
}) => {
  const email = "public-editor@example.com";
  // Anyone with the link can view it (the service account included); only its editor can edit it.
  const sheetId = await createPrivateSpreadsheet(email, "Editor's public list");
  await shareSpreadsheet(sheetId, { linkAccess: "reader" });
  await signIn(page, email);
  await chooseFromDrive(page, sheetId, email);
  const result = page.getByTestId("register-result");
  await expect(result).toContainText("read-only");
  const key = await copyNewKey(page);
  const write = async () =>
    (
      await page.request.post(`/api/v1/${sheetId}/Items`, { headers: { "X-API-Key": key }, data: { name: "x" } })
    ).status();
  expect(await write()).toBe(403);

  await result.getByTestId("writable-through-grant").getByRole("link").click();
  await page.waitForURL(new RegExp(`/dashboard/sheets/${sheetId}\\?through=google$`));
  await expect(page.getByTestId("sheet-access")).toContainText("Read and write");
  await expect(page.getByTestId("through-google")).toContainText(
    "SheetAPI now reaches this sheet with your Google account",
  );
  await expect(page.getByTestId("writable-through-grant")).toHaveCount(0);
  expect(await write()).toBe(201);
});
