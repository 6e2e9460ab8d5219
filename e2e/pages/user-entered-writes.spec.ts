// The owner's opt-in to USER_ENTERED writes, from the sheet's page: off by default (a formula is
// stored as text), on only after a question (the same write runs as a formula), and off again.
import { expect, test } from "@playwright/test";
import { registerSheet } from "../support/dashboard";
import { dialogs } from "../support/dialogs";
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
  const { seen, messages, answer } = dialogs(page);
  const toggle = page.getByTestId("user-entered-writes");
  await expect(toggle).not.toBeChecked();
  // A tap on the explanation does not switch it; turning it on asks first, and declined, nothing changes.
  await page.locator("#user-entered-writes-help").click();
  await expect(toggle).not.toBeChecked();
  expect(seen).toEqual([]);
  await toggle.click();
  await expect.poll(() => seen).toEqual(["confirm"]);
  expect(messages[0]).toContain("able to plant live formulas");
  await expect(toggle).not.toBeChecked();
  expect(await create("=2*21")).toBe("=2*21");

  answer(true);
  await toggle.check();
  await expect(page.getByTestId("write-mode").getByRole("status")).toHaveText(
    "Saved: written values are parsed, formulas included.",
  );
  expect(await create("=2*21")).toBe("42");

  await page.reload();
  await expect(toggle).toBeChecked();
  await toggle.uncheck();
  await expect(page.getByTestId("write-mode").getByRole("status")).toHaveText(
    "Saved: written values are stored as text.",
  );
  expect(seen).toHaveLength(2);
  expect(await create("=2*21")).toBe("=2*21");
});
