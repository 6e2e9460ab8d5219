// Key edits that are not saved yet are not lost without a question: a reload asks (the browser's
// "Leave site?"), a link inside the app and the Back button ask (a confirm); declining keeps the
// page and the edit. Saved or reverted, nothing asks. A new key's one-time dialog asks the same,
// and so does the first key shown under the registration form, until it is copied.
import { expect, test, type Page } from "@playwright/test";
import { chooseFromDrive, copyNewKey, keyRow, openRegisterForm, registerSheet } from "../support/dashboard";
import { dialogs } from "../support/dialogs";
import { createSpreadsheet, shareSpreadsheet } from "../support/emulator-admin";
import { signIn } from "../support/google-consent";

/** The browser's Back button (the App Router's pages share one document: no load to wait for). */
const back = (page: Page) => page.evaluate(() => history.back());

/**
 * Reloads, and says whether the page really reloaded: a declined "Leave site?" keeps it (and
 * page.reload() then waits for a load that never comes, hence the short timeout).
 */
async function reload(page: Page): Promise<boolean> {
  await page.evaluate(() => ((window as { notReloaded?: boolean }).notReloaded = true));
  await page.reload({ timeout: 3_000 }).catch(() => undefined);
  return !(await page.evaluate(() => (window as { notReloaded?: boolean }).notReloaded ?? false));
}

test("an unsaved permission change asks before a reload and before a link; saved or reverted, it does not", async ({
  page,
}) => {
  test.setTimeout(90_000);
  const sheetId = await createSpreadsheet("Unsaved permissions");
  await signIn(page, "unsaved-permissions@example.com");
  await registerSheet(page, sheetId);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`/dashboard/sheets/${sheetId}`);
  const { seen, answer } = dialogs(page);
  const row = keyRow(page, "Default key");
  const schema = row.locator('[data-testid$="-schema"]');

  await schema.uncheck();
  await expect(row.getByTestId("permissions-unsaved")).toHaveText("Not saved yet");
  expect(await reload(page)).toBe(false);
  expect(seen).toEqual(["beforeunload"]);
  await expect(schema).not.toBeChecked();

  await page.getByTestId("nav-usage").click();
  expect(seen).toEqual(["beforeunload", "confirm"]);
  await expect(page).toHaveURL(new RegExp(`/dashboard/sheets/${sheetId}$`));
  await expect(row.getByTestId("permissions-unsaved")).toBeVisible();
  // A link within the page (#api-keys) leaves nothing behind: no question.
  await page.evaluate(() =>
    document.querySelector("main")!.insertAdjacentHTML("afterbegin", '<a href="#api-keys" id="same-page">keys</a>'),
  );
  await page.locator("#same-page").click();
  expect(seen).toHaveLength(2);

  // Reverted: nothing to lose.
  await schema.check();
  await expect(row.getByTestId("permissions-unsaved")).toHaveCount(0);
  expect(await reload(page)).toBe(true);
  expect(seen).toHaveLength(2);

  // Saved: nothing to lose either, and the saved state comes back after the reload.
  await schema.uncheck();
  await row.getByTestId("save-permissions").click();
  await expect(row.getByRole("status")).toHaveText("Permissions saved.");
  expect(await reload(page)).toBe(true);
  expect(seen).toHaveLength(2);
  await expect(schema).not.toBeChecked();

  // Agreeing to leave by a link leaves, asking once.
  await schema.check();
  answer(true);
  await page.getByTestId("nav-usage").click();
  await page.waitForURL(/\/dashboard\/usage$/);
  expect(seen).toEqual(["beforeunload", "confirm", "confirm"]);
  // The guard went with the page: a reload here asks nothing.
  answer(false);
  await page.getByTestId("nav-usage").click();
  expect(await reload(page)).toBe(true);
  expect(seen).toHaveLength(3);
});

test("a half-filled new key and edited browser settings ask before the page goes; created, cancelled or closed as agreed, they do not", async ({
  page,
}) => {
  test.setTimeout(90_000);
  const sheetId = await createSpreadsheet("Unsaved key forms");
  await signIn(page, "unsaved-forms@example.com");
  await registerSheet(page, sheetId);
  await page.goto(`/dashboard/sheets/${sheetId}`);
  const { seen, answer } = dialogs(page);

  // A name typed in the new key form.
  await page.getByTestId("key-name").fill("Shop website");
  expect(await reload(page)).toBe(false);
  expect(seen).toEqual(["beforeunload"]);
  await expect(page.getByTestId("key-name")).toHaveValue("Shop website");

  // Created: the form starts over, with nothing to lose.
  await page.getByTestId("kind-browser").check();
  await page.getByTestId("new-key-origins").fill("https://www.example.com");
  await page.getByTestId("create-key").click();
  await copyNewKey(page.getByTestId("key-dialog"));
  await page.getByTestId("close-key-dialog").click();
  await expect(page.getByTestId("key-name")).toHaveValue("");
  expect(await reload(page)).toBe(true);
  expect(seen).toHaveLength(1);

  // The browser key's origins, edited and not saved.
  const row = keyRow(page, "Shop website");
  await row.getByTestId("edit-browser").click();
  expect(await reload(page)).toBe(true); // opening the editor changes nothing
  await row.getByTestId("edit-browser").click();
  await row.locator('textarea[data-testid$="-origins"]').fill("https://www.example.com\nhttps://shop.example.com");
  expect(await reload(page)).toBe(false);
  expect(seen).toEqual(["beforeunload", "beforeunload"]);

  // Cancelled: nothing to lose.
  await row.getByRole("button", { name: "Cancel" }).click();
  expect(await reload(page)).toBe(true);
  expect(seen).toHaveLength(2);

  // Closing the tab with an edit pending asks too; agreeing closes it.
  await page.getByTestId("key-name").fill("Another");
  answer(true);
  await page.close({ runBeforeUnload: true });
  await expect.poll(() => page.isClosed()).toBe(true);
  expect(seen).toEqual(["beforeunload", "beforeunload", "beforeunload"]);
});

test("Back asks too: declined, the page and the edit stay; agreed or with nothing unsaved, it goes back", async ({
  page,
}) => {
  test.setTimeout(90_000);
  const sheetId = await createSpreadsheet("Unsaved and Back");
  await signIn(page, "unsaved-back@example.com");
  await registerSheet(page, sheetId);
  const sheetPage = new RegExp(`/dashboard/sheets/${sheetId}$`);
  await page.goto(`/dashboard/sheets/${sheetId}`);
  const { seen, messages, answer } = dialogs(page);

  await page.getByTestId("key-name").fill("Draft");
  await back(page);
  await expect.poll(() => seen).toEqual(["confirm"]);
  await expect(page).toHaveURL(sheetPage);
  await expect(page.getByTestId("key-name")).toHaveValue("Draft");
  // Declined once, it still asks the next time.
  await back(page);
  await expect.poll(() => seen).toEqual(["confirm", "confirm"]);
  await expect(page.getByTestId("key-name")).toHaveValue("Draft");

  // Nothing unsaved: Back goes back at once, in one step.
  await page.getByTestId("key-name").fill("");
  await page.waitForFunction(() => !(history.state as Record<string, unknown> | null)?.sheetapiUnsavedGuard);
  await back(page);
  await page.waitForURL(/\/dashboard$/);
  expect(seen).toHaveLength(2);

  // A new key's value is shown once: Back with its dialog open asks, and agreed, goes back.
  await page.goto(`/dashboard/sheets/${sheetId}`);
  await page.getByTestId("key-name").fill("Shown once");
  await page.getByTestId("create-key").click();
  await expect(page.getByTestId("key-dialog")).toBeVisible();
  await expect(page.getByTestId("copy-key")).toBeFocused();
  await back(page);
  await expect.poll(() => seen).toHaveLength(3);
  expect(messages[2]).toContain("shown only this once");
  await expect(page.getByTestId("key-dialog")).toBeVisible();
  answer(true);
  await back(page);
  await page.waitForURL(/\/dashboard$/);
  expect(seen).toHaveLength(4);
});

test("the first key shown under the registration form: Back and a reload ask until it is copied", async ({ page }) => {
  const sheetId = await createSpreadsheet("First key kept");
  const email = "first-key-kept@example.com";
  await signIn(page, email);
  await openRegisterForm(page);
  await shareSpreadsheet(sheetId, { members: { [email]: "writer" } });
  await chooseFromDrive(page, sheetId);
  await expect(page.getByTestId("register-result").getByTestId("new-key-value")).toHaveText(/^shk_/);
  const { seen, messages } = dialogs(page);

  await back(page);
  await expect.poll(() => seen).toEqual(["confirm"]);
  expect(messages[0]).toContain("shown only this once");
  await expect(page.getByTestId("register-result").getByTestId("new-key-value")).toHaveText(/^shk_/);
  expect(await reload(page)).toBe(false);
  expect(seen).toEqual(["confirm", "beforeunload"]);
  // Registering another sheet would replace it: that asks too.
  await page.getByTestId("choose-from-drive").click();
  await expect.poll(() => seen).toEqual(["confirm", "beforeunload", "confirm"]);
  await expect(page.getByTestId("register-result").getByTestId("new-key-value")).toHaveText(/^shk_/);

  // Copied (here as a person selecting it and copying): nothing to lose, nothing asks.
  await copyNewKey(page.getByTestId("register-result"));
  await expect(page.getByTestId("copy-key")).toHaveText("Copied");
  await page.waitForFunction(() => !(history.state as Record<string, unknown> | null)?.sheetapiUnsavedGuard);
  expect(await reload(page)).toBe(true);
  expect(seen).toHaveLength(3);
});
