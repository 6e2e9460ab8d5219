import { expect, test } from "@playwright/test";

test("the landing page says what the service does and links to sign-in", async ({ page }) => {
  await page.goto("/");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(/Google Sheet, as a real REST API/);
  await expect(page.getByTestId("sign-in")).toHaveAttribute("href", "/dashboard");
  await expect(page.getByTestId("get-started")).toHaveAttribute("href", "/dashboard");
  await page.screenshot({ path: "test-results/landing.png", fullPage: true });
});
