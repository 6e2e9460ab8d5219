// The owner allows one key to read formulas from the key's row on the sheet's page: before,
// ?formulas=true is 403; after, formula cells answer with their formula.
import { expect, test } from "@playwright/test";
import { copyNewKey, keyRow, registerSheet } from "../support/dashboard";
import { copySpreadsheet, createSpreadsheet } from "../support/emulator-admin";
import { signIn } from "../support/google-consent";

const GERMAN_SPREADSHEET_ID = "1GermanOrdersSpreadsheet00000000000000000005";

test("the owner lets a key read formulas", async ({ page, request }) => {
  const sheetId = await copySpreadsheet(GERMAN_SPREADSHEET_ID);
  await signIn(page, "formulas-owner@example.com");
  const key = await registerSheet(page, sheetId);
  const read = () => request.get(`/api/v1/${sheetId}/Bestellungen/1?formulas=true`, { headers: { "X-API-Key": key } });
  expect((await read()).status()).toBe(403);

  await page.goto(`/dashboard/sheets/${sheetId}`);
  const row = keyRow(page, "Default key");
  await row.getByTestId("key-read-formulas").check();
  await expect(row.getByRole("status")).toHaveText("This key can read formulas.");
  const allowed = await read();
  expect(allowed.status()).toBe(200);
  expect(((await allowed.json()) as { data: { summe: string } }).data.summe).toBe("=E2*C2");
});

test("a key created to refuse formulas cannot plant one once written values are parsed", async ({ page, request }) => {
  const sheetId = await createSpreadsheet("Refuse formulas", [
    ["id", "name"],
    [1, "first"],
  ]);
  await signIn(page, "refuse-formulas@example.com");
  await registerSheet(page, sheetId);
  await page.goto(`/dashboard/sheets/${sheetId}`);
  page.once("dialog", (d) => void d.accept());
  await page.getByTestId("user-entered-writes").check();
  await expect(page.getByTestId("write-mode")).toContainText("Saved: written values are parsed");

  await page.getByTestId("key-name").fill("Form handler");
  await page.getByTestId("new-key-write").check();
  await page.getByTestId("new-key-refuse-formulas").check();
  await page.getByTestId("create-key").click();
  const dialog = page.getByRole("dialog", { name: "Your new API key" });
  const key = await copyNewKey(dialog);
  await dialog.getByTestId("close-key-dialog").click();
  await expect(keyRow(page, "Form handler").getByTestId("key-refuses-formulas")).toBeVisible();

  const write = (name: string) =>
    request.post(`/api/v1/${sheetId}/Items`, { headers: { "X-API-Key": key }, data: { name } });
  const refused = await write('=IMPORTXML("https://example.com", "//a")');
  expect(refused.status()).toBe(400);
  expect(await refused.json()).toMatchObject({ success: false, error: "validation_error", field: "name" });
  expect((await write("plain text")).status()).toBe(201);
});
