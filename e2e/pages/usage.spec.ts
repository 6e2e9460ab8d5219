// The usage page from the owner's side: live figures equal GET /billing/usage, and the charts
// show today's requests by status class and by key.
import { expect, test } from "@playwright/test";
import { choosePlan, registerSheet } from "../support/dashboard";
import { createSpreadsheet } from "../support/emulator-admin";
import { signIn } from "../support/google-consent";

test("the usage page shows the chart and the numbers of /billing/usage", async ({ page, request }, testInfo) => {
  const sheetId = await createSpreadsheet("Usage test");
  await signIn(page, "usage@example.com");
  const key = await registerSheet(page, sheetId);
  await choosePlan(page, "starter", "Starter");
  const headers = { "X-API-Key": key };

  for (let i = 0; i < 3; i++) expect((await request.get(`/api/v1/${sheetId}/Items`, { headers })).status()).toBe(200);
  expect((await request.get(`/api/v1/${sheetId}/Items/999`, { headers })).status()).toBe(404);
  expect((await request.get(`/api/v1/${sheetId}/NoSuchTab`, { headers })).status()).toBe(404);

  const usage = await request.get("/billing/usage", { headers });
  expect(usage.status()).toBe(200);
  const { data } = (await usage.json()) as {
    data: {
      current_period: { requests_used: number; requests_limit: number; percentage_used: number };
      daily_average: number;
      projected_usage: number;
    };
  };
  expect(data.current_period).toMatchObject({ requests_used: 5, requests_limit: 10_000, percentage_used: 0.05 });

  await page.getByTestId("nav-usage").click();
  await page.waitForURL(/\/dashboard\/usage$/);
  await expect(page.getByTestId("usage-requests-used")).toHaveText(String(data.current_period.requests_used));
  await expect(page.getByTestId("usage-requests-limit")).toHaveText(
    data.current_period.requests_limit.toLocaleString("en-US"),
  );
  await expect(page.getByTestId("usage-percentage")).toHaveText(`${data.current_period.percentage_used}%`);
  await expect(page.getByTestId("usage-daily-average")).toHaveText(data.daily_average.toLocaleString("en-US"));
  await expect(page.getByTestId("usage-projected")).toHaveText(data.projected_usage.toLocaleString("en-US"));
  await expect(page.getByTestId("window-burst").getByTestId("window-use")).toHaveText("5 / 20");
  await expect(page.getByTestId("window-month").getByTestId("window-use")).toHaveText("5 / 10,000");

  const today = new Date().toISOString().slice(0, 10);
  await expect(page.getByTestId("chart-by-class").locator(`[data-day="${today}"]`)).toHaveAttribute("data-total", "5");
  await expect(page.getByTestId("chart-by-key").locator(`[data-day="${today}"]`)).toHaveAttribute("data-total", "5");
  // The day's numbers without hovering (touch screens): listed under the chart.
  await page.getByTestId("chart-by-class-days").locator("summary").click();
  await expect(
    page.getByTestId("chart-by-class-days").locator("tr", { hasText: today }).locator("td").nth(1),
  ).toHaveText("5");
  await expect(page.getByTestId("usage-by-key")).toContainText("Default key");
  // Every sheet's first key is "Default key": the sheet it belongs to tells them apart.
  await expect(page.getByTestId("usage-key-sheet")).toHaveText("· Usage test");
  await expect(page.getByTestId("plan-select")).toHaveValue("starter");
  await page.screenshot({ path: testInfo.outputPath("usage-page.png"), fullPage: true });
});
