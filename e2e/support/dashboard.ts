// Page objects for the dashboard.
import { expect, type Page } from "@playwright/test";

/** Registers a sheet from the dashboard and returns the first key's value. */
export async function registerSheet(page: Page, sheetId: string): Promise<string> {
  await page.goto("/dashboard");
  await page.getByTestId("sheet-url").fill(sheetId);
  await page.getByTestId("register-submit").click();
  await expect(page.getByTestId("register-result")).toBeVisible();
  return (await page.getByTestId("new-key-value").textContent())!.trim();
}

export function keyRow(page: Page, name: string) {
  return page.locator(`[data-testid="key-row"][data-key-name="${name}"]`);
}

export async function revokeKey(page: Page, name: string) {
  const row = keyRow(page, name);
  await row.getByTestId("revoke").click();
  await row.getByTestId("confirm-revoke").click();
  await expect(keyRow(page, name).getByTestId("key-revoked")).toBeVisible();
}

/** Switches the signed-in account's plan from the usage page. */
export async function choosePlan(page: Page, plan: "free_trial" | "starter" | "professional" | "business", label: string) {
  await page.goto("/dashboard/usage");
  await page.getByTestId("plan-select").selectOption(plan);
  await page.getByTestId("plan-submit").click();
  await expect(page.getByTestId("plan-name")).toHaveText(label);
}
