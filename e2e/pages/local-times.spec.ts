// Times on the pages are the reader's: a browser in Tokyo reads Tokyo time, with the zone named,
// and the UTC time in the tooltip. Calendar windows (this hour, today) stay UTC, as they count.
import { expect, test } from "@playwright/test";
import { keyRow, registerSheet } from "../support/dashboard";
import { createSpreadsheet } from "../support/emulator-admin";
import { signIn } from "../support/google-consent";

test.use({ timezoneId: "Asia/Tokyo" });

test("a reader in Tokyo reads the dashboard's times in Tokyo time", async ({ page }) => {
  const sheetId = await createSpreadsheet("Local times");
  await signIn(page, "local-times@example.com");
  await registerSheet(page, sheetId);
  await page.goto(`/dashboard/sheets/${sheetId}`);

  const created = keyRow(page, "Default key").locator("time").first();
  await expect(created).toHaveText(/^\d{4}-\d\d-\d\d \d\d:\d\d GMT\+9$/);
  const instant = Date.parse((await created.getAttribute("datetime"))!);
  expect(Math.abs(instant - Date.now())).toBeLessThan(10 * 60_000);
  // The text is the instant in Tokyo (UTC+9, no summer time); the tooltip the same in UTC.
  const tokyo = new Date(instant + 9 * 3600_000).toISOString();
  await expect(created).toHaveText(`${tokyo.slice(0, 10)} ${tokyo.slice(11, 16)} GMT+9`);
  await expect(created).toHaveAttribute(
    "title",
    `${new Date(instant).toISOString().slice(0, 10)} ${new Date(instant).toISOString().slice(11, 16)} UTC`,
  );

  await page.getByTestId("nav-usage").click();
  await page.waitForURL(/\/dashboard\/usage$/);
  await expect(page.getByTestId("window-hour")).toContainText("This hour (UTC)");
  await expect(page.getByTestId("window-hour").locator("time")).toHaveText(/ GMT\+9$/);
});
