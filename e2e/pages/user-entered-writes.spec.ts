// The owner's opt-in to USER_ENTERED writes, from the sheet's page: off by default (a formula is
// stored as text), on (the same write runs as a formula), and off again.
import { expect, test } from "@playwright/test";
import { registerSheet } from "../support/dashboard";
import { copySpreadsheet } from "../support/emulator-admin";
import { E2E } from "../support/env";
import { signIn } from "../support/google-consent";

test("the owner turns on writes entered as typed in Google Sheets, and off again", async ({ page, request }) => {
  const sheetId = await copySpreadsheet(E2E.demoSheetId);
  await signIn(page, "user-entered-owner@example.com");
  const key = await registerSheet(page, sheetId);
  const create = async (name: string) => {
    const res = await request.post(`/api/v1/${sheetId}/Products`, { headers: { "X-API-Key": key }, data: { name } });
    expect(res.status()).toBe(201);
    return ((await res.json()) as { data: { rows: { name: string }[] } }).data.rows[0]!.name;
  };
  expect(await create("=2*21")).toBe("=2*21");

  await page.goto(`/dashboard/sheets/${sheetId}`);
  const toggle = page.getByTestId("user-entered-writes");
  await expect(toggle).not.toBeChecked();
  await toggle.check();
  await expect(page.getByTestId("write-mode").getByRole("status")).toHaveText("Saved.");
  expect(await create("=2*21")).toBe("42");

  await page.reload();
  await expect(toggle).toBeChecked();
  await toggle.uncheck();
  await expect(page.getByTestId("write-mode").getByRole("status")).toHaveText("Saved.");
  expect(await create("=2*21")).toBe("=2*21");
});
