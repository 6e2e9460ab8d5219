// The owner's view of Google calls and caching on a sheet's page, and the cache settings.
import { expect, test } from "@playwright/test";
import { registerSheet } from "../support/dashboard";
import { copySpreadsheet } from "../support/emulator-admin";
import { E2E } from "../support/env";
import { signIn } from "../support/google-consent";

test("a sheet's page shows its Google calls and cache hit rate, and saves its cache settings", async ({
  page,
  request,
}) => {
  const sheetId = await copySpreadsheet(E2E.demoSheetId);
  await signIn(page, "cache-owner@example.com");
  const key = await registerSheet(page, sheetId);
  const headers = { "X-API-Key": key };
  const first = await request.get(`/api/v1/${sheetId}/Products`, { headers });
  const second = await request.get(`/api/v1/${sheetId}/Products`, { headers });
  expect([first.headers()["x-cache"], second.headers()["x-cache"]]).toEqual(["MISS", "HIT"]);

  await page.goto(`/dashboard/sheets/${sheetId}`);
  await expect(page.getByTestId("google-calls-today")).toHaveText("1");
  await expect(page.getByTestId("cache-hit-rate")).toHaveText("50.0%");

  await page.getByTestId("cache-ttl").fill("30");
  await page.getByTestId("max-stale").fill("900");
  await page.getByTestId("save-cache-settings").click();
  await expect(page.getByTestId("cache-settings").getByRole("status")).toHaveText("Saved.");
  await page.reload();
  await expect(page.getByTestId("cache-ttl")).toHaveValue("30");
  await expect(page.getByTestId("max-stale")).toHaveValue("900");
});
