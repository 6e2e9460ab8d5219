// Sheet, tab and column names are the owner's, and may be one long word: on a phone they wrap,
// and no page grows wider than the screen (it would pan sideways or zoom out).
import { expect, test, type Page } from "@playwright/test";
import { registerSheet } from "../support/dashboard";
import { createSpreadsheet } from "../support/emulator-admin";
import { signIn } from "../support/google-consent";

const LONG = "Quarterly_reconciliation_of_outstanding_customer_invoices_by_region";

async function widerThanScreen(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
}

test("long sheet, tab and column names never make a page wider than a phone", async ({ page }) => {
  test.setTimeout(90_000);
  const sheetId = await createSpreadsheet(
    `${LONG}_sheet`,
    [
      ["id", `${LONG}_column`, "name"],
      [1, `${LONG}_value`, "first"],
    ],
    [
      {
        title: `${LONG}_tab`,
        rows: [
          ["id", `${LONG}_other`],
          [1, "x"],
        ],
      },
    ],
  );
  await signIn(page, "long-names@example.com");
  await page.setViewportSize({ width: 390, height: 844 });
  await registerSheet(page, sheetId);
  expect(await widerThanScreen(page)).toBeLessThanOrEqual(0);
  for (const path of [`/dashboard/sheets/${sheetId}`, `/docs/${sheetId}`, "/dashboard"]) {
    await page.goto(path);
    await expect(page.getByText(`${LONG}_sheet`).first()).toBeVisible();
    expect(await widerThanScreen(page), path).toBeLessThanOrEqual(0);
  }
});
