// Keys from the owner's side: create one, see it once, copy it, use it, narrow it, revoke it.
import { expect, test } from "@playwright/test";
import { keyRow, registerSheet, revokeKey } from "../support/dashboard";
import { createSpreadsheet } from "../support/emulator-admin";
import { signIn } from "../support/google-consent";

test.use({ permissions: ["clipboard-read", "clipboard-write"] });

test("create, copy, use, narrow and revoke a key; its value never comes back", async ({ page, request }) => {
  const sheetId = await createSpreadsheet("Key test");
  await signIn(page, "keys@example.com");
  await registerSheet(page, sheetId);
  await page.goto(`/dashboard/sheets/${sheetId}`);

  await page.getByTestId("key-name").fill("Integration");
  await page.getByTestId("new-key-schema").check();
  await page.getByTestId("create-key").click();
  const dialog = page.getByRole("dialog", { name: "Your new API key" });
  const value = (await dialog.getByTestId("new-key-value").textContent())!.trim();
  expect(value).toMatch(/^shk_[0-9A-Za-z]{38}$/);
  await dialog.getByTestId("copy-key").click();
  await expect(dialog.getByTestId("copy-key")).toHaveText("Copied");
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(value);
  // Copied, the dialog closes at once.
  await dialog.getByTestId("close-key-dialog").click();
  await expect(dialog).toHaveCount(0);

  const row = keyRow(page, "Integration");
  await expect(row).toContainText(value.slice(0, 8));
  const schema = () => request.get(`/api/${sheetId}/schema`, { headers: { "X-API-Key": value } });
  expect((await schema()).status()).toBe(200);

  await row.locator('[data-testid$="-schema"]').uncheck();
  await expect(row.getByTestId("permissions-unsaved")).toHaveText("Not saved yet");
  await row.getByTestId("save-permissions").click();
  await expect(row.getByRole("status")).toHaveText("Permissions saved.");
  await expect(row.getByTestId("permissions-unsaved")).toHaveCount(0);
  const narrowed = await schema();
  expect(narrowed.status()).toBe(403);
  expect(await narrowed.json()).toMatchObject({ success: false, error: "forbidden" });

  await revokeKey(page, "Integration");
  const revoked = await schema();
  expect(revoked.status()).toBe(401);
  expect(await revoked.json()).toMatchObject({ success: false, error: "unauthorized" });

  await page.reload();
  await expect(keyRow(page, "Integration").getByTestId("key-revoked")).toBeVisible();
  expect(await page.content()).not.toContain(value);
  expect(await page.content()).not.toContain(value.slice(8));
});
