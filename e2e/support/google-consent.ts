// Page object for the emulator's Google consent screen.
import { expect, type Page } from "@playwright/test";
import { E2E } from "./env";

export async function approveGoogleConsent(page: Page, email = "owner@example.com") {
  await page.waitForURL((url) => url.href.startsWith(`${E2E.googleUrl}/o/oauth2/v2/auth`));
  await expect(page.getByRole("heading", { name: /Google Accounts/ })).toBeVisible();
  await page.getByLabel("Account").fill(email);
  await page.getByRole("button", { name: "Allow" }).click();
}

export async function signIn(page: Page, email = "owner@example.com") {
  await page.goto("/dashboard");
  await page.waitForURL(/\/signin/);
  await page.getByTestId("sign-in-google").click();
  await approveGoogleConsent(page, email);
  await page.waitForURL(/\/dashboard$/);
  await expect(page.getByTestId("account-email")).toHaveText(email);
}
