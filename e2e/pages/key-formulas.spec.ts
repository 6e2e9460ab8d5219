// The owner allows one key to read formulas from the key's row on the sheet's page: before,
// ?formulas=true is 403; after, formula cells answer with their formula.
import { expect, test } from "@playwright/test";
import { keyRow, registerSheet } from "../support/dashboard";
import { copySpreadsheet } from "../support/emulator-admin";
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
