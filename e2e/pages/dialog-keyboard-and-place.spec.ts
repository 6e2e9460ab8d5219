// The one-time key dialog behaves as a modal does for a keyboard: focus stays inside it, Escape
// asks before the key is lost. The header says which section is shown, the tab's title names the
// sheet, and a docs table wider than a phone can be scrolled and is marked as such.
import { expect, test } from "@playwright/test";
import { registerSheet } from "../support/dashboard";
import { dialogs } from "../support/dialogs";
import { createSpreadsheet } from "../support/emulator-admin";
import { signIn } from "../support/google-consent";

test("the new key's dialog starts on Copy, asks before closing over an uncopied key, and Tab stays inside it", async ({
  page,
}) => {
  test.setTimeout(90_000);
  const sheetId = await createSpreadsheet("Dialog keys");
  await signIn(page, "dialog-keys@example.com");
  await registerSheet(page, sheetId);
  await page.goto(`/dashboard/sheets/${sheetId}`);
  const { messages, answer } = dialogs(page);

  await page.getByTestId("key-name").fill("Escape test");
  await page.getByTestId("create-key").click();
  const dialog = page.getByTestId("key-dialog");
  await expect(dialog).toBeVisible();
  await expect(page.getByTestId("copy-key")).toBeFocused();

  // Tab from the last control comes back to the first; Shift+Tab from the first goes to the last.
  for (let i = 0; i < 12; i++) {
    await page.keyboard.press("Tab");
    expect(await dialog.evaluate((el) => el.contains(document.activeElement))).toBe(true);
  }
  for (let i = 0; i < 12; i++) {
    await page.keyboard.press("Shift+Tab");
    expect(await dialog.evaluate((el) => el.contains(document.activeElement))).toBe(true);
  }

  // "I have copied it" before any copy, or Escape, asks: declined, the key stays on screen;
  // agreed, the dialog closes.
  await page.getByTestId("close-key-dialog").click();
  await expect.poll(() => messages).toHaveLength(1);
  expect(messages[0]).toContain("shown only this once");
  await expect(dialog).toBeVisible();
  await page.keyboard.press("Escape");
  await expect.poll(() => messages).toHaveLength(2);
  await expect(dialog).toBeVisible();
  answer(true);
  await page.keyboard.press("Escape");
  await expect(dialog).toHaveCount(0);
  expect(messages).toHaveLength(3);
  // Focus comes back to the form's button, not to the top of the page.
  await expect(page.getByTestId("create-key")).toBeFocused();

  // Revoked, the row's button is gone: focus goes to what happened.
  const row = page.locator('[data-testid="key-row"][data-key-name="Escape test"]');
  await row.getByRole("button", { name: "Revoke Escape test" }).click();
  await row.getByTestId("confirm-revoke").click();
  await expect(row.getByRole("status")).toHaveText("Key revoked.");
  await expect(row.getByRole("status")).toBeFocused();
});

test("a skip link leads past the header, which marks the section shown; titles name the sheet, and wide docs tables scroll in their own box", async ({
  page,
}) => {
  test.setTimeout(90_000);
  const sheetId = await createSpreadsheet("Orientation Ledger", [
    ["id", "name", "price", "when", "notes", "owner", "status"],
    [1, "first", 3, "2026-01-02", "a", "b", "open"],
  ]);
  await signIn(page, "orientation@example.com");
  await registerSheet(page, sheetId);

  await page.goto("/dashboard");
  await expect(page.getByTestId("nav-sheets")).toHaveAttribute("aria-current", "page");
  await expect(page.getByTestId("nav-usage")).not.toHaveAttribute("aria-current", "page");
  // A keyboard's first stop skips the header.
  await page.keyboard.press("Tab");
  await expect(page.getByRole("link", { name: "Skip to content" })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/dashboard#main$/);

  await page.goto(`/dashboard/sheets/${sheetId}`);
  await expect(page).toHaveTitle("Orientation Ledger: keys and settings · SheetAPI");
  await expect(page.getByTestId("nav-sheets")).toHaveAttribute("aria-current", "page");

  await page.getByTestId("nav-usage").click();
  await page.waitForURL(/\/dashboard\/usage$/);
  await expect(page.getByTestId("nav-usage")).toHaveAttribute("aria-current", "page");
  await expect(page.getByTestId("nav-sheets")).not.toHaveAttribute("aria-current", "page");

  // Another account's sheet is not named in the title.
  await page.context().clearCookies();
  await signIn(page, "someone-else@example.com");
  await page.goto(`/dashboard/sheets/${sheetId}`);
  await expect(page).not.toHaveTitle(/Orientation Ledger/);

  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`/docs/${sheetId}`);
  const box = page.getByRole("region", { name: "Errors" });
  await expect(box).toBeVisible();
  const sizes = await box.evaluate((el) => ({
    scroll: el.scrollWidth,
    client: el.clientWidth,
    tabIndex: el.tabIndex,
    hint: getComputedStyle(el).backgroundImage,
  }));
  expect(sizes.scroll).toBeGreaterThan(sizes.client);
  expect(sizes.tabIndex).toBe(0);
  expect(sizes.hint).toContain("gradient");
  // Inside the box, error codes stay whole rather than broken letter by letter to fit the phone.
  for (const code of await box.locator("code").all())
    expect(await code.evaluate((el) => el.getClientRects().length)).toBe(1);
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBe(0);
});
