import { expect, test } from "@playwright/test";

test("the landing page says what the service does and links to sign-in", async ({ page }) => {
  await page.goto("/");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(/Google Sheet, as a real REST API/);
  await expect(page.getByTestId("sign-in")).toHaveAttribute("href", "/dashboard");
  await expect(page.getByTestId("get-started")).toHaveAttribute("href", "/dashboard");
  // The plans and their limits, as the spec sets them, one tap from the header.
  await page.getByTestId("plans-link").click();
  await expect(page.getByTestId("plans")).toBeInViewport();
  for (const text of [
    "Free Trial",
    "3,000",
    "Starter",
    "10,000",
    "Professional",
    "100,000",
    "Business",
    "1,000,000",
    "bursts of 500 a minute",
  ]) {
    await expect(page.getByTestId("plans")).toContainText(text);
  }
  await page.screenshot({ path: "test-results/landing.png", fullPage: true });
});
