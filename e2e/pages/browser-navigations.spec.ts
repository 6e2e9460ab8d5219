// Addresses a person may open in the browser's address bar answer a page, never raw JSON; API
// clients asking the same addresses keep the spec's envelope.
import { expect, test } from "@playwright/test";
import { signIn } from "../support/google-consent";

test("GET /register in a browser lands on the dashboard; an API client gets 405 in the envelope", async ({
  page,
  request,
}) => {
  await signIn(page, "navigations@example.com");
  await page.goto("/register");
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByTestId("register-form")).toBeVisible();

  const api = await request.get("/register", { headers: { accept: "application/json" } });
  expect(api.status()).toBe(405);
  expect(await api.json()).toMatchObject({ success: false, error: "method_not_allowed" });
});

test("/auth/google?sheet_url=<not a sheet> in a browser shows what was typed on the dashboard; an API client gets 400", async ({
  page,
  request,
}) => {
  await signIn(page, "navigations-2@example.com");
  await page.goto("/auth/google?sheet_url=garbage-typed-here");
  await expect(page).toHaveURL(/\/dashboard\?error=/);
  await expect(page.getByTestId("dashboard-error")).toContainText(
    "“garbage-typed-here” is not a Google Sheets address",
  );
  expect(await page.locator("body").textContent()).not.toContain('"success"');

  const api = await request.get("/auth/google?sheet_url=garbage-typed-here", {
    headers: { accept: "application/json" },
    maxRedirects: 0,
  });
  expect(api.status()).toBe(400);
  expect(await api.json()).toMatchObject({ success: false, error: "validation_error" });
});
