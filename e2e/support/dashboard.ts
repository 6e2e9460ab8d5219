// Page objects for the dashboard.
import { expect, type Locator, type Page, type Route } from "@playwright/test";
import { shareSpreadsheet } from "./emulator-admin";
import { approveGoogleConsent, signIn } from "./google-consent";

/** The dashboard's registration form, once React has made it interactive. */
export async function openRegisterForm(page: Page) {
  if (!/\/dashboard(\?|$)/.test(page.url())) await page.goto("/dashboard");
  await expect(page.locator('[data-testid="register-form"][data-hydrated="true"]')).toBeVisible();
}

/** The emulator's Google Picker frame (Google's is a frame on docs.google.com). */
export const googlePicker = (page: Page) => page.frameLocator('iframe[title="Google Picker"]');

/**
 * Clicks `target` in the Picker (a file, Cancel) and waits for the Picker to close, as any answer
 * of the Picker closes it. The Picker is a frame of another site: Chromium can drop a click that
 * reaches such a frame in the first moments after it is drawn (seen on CI: the click done, the
 * frame never saw it), so a click the Picker did not answer within a few seconds is made again.
 * What the page does with the answer is for the caller to check.
 */
export async function clickInPicker(page: Page, target: Locator) {
  const overlay = page.locator("[data-picker-overlay]");
  await expect(target).toBeVisible();
  await expect(async () => {
    if (await overlay.count()) await target.click({ timeout: 5000 });
    await expect(overlay).toHaveCount(0, { timeout: 3000 });
  }).toPass({ timeout: 30_000 });
}

/**
 * "Choose a sheet from Google Drive": connects Google first when the account has not (the
 * consent screen, as `googleEmail`), then picks `sheetId` in the Picker.
 */
export async function chooseFromDrive(page: Page, sheetId: string, googleEmail?: string) {
  await openRegisterForm(page);
  const connect = page.getByTestId("connect-google");
  if (await connect.isVisible()) {
    await expect(page.getByTestId("scopes-explained")).toContainText(
      "only the specific Google Drive files that you use with this app",
    );
    const email = googleEmail ?? (await accountEmail(page));
    await connect.click();
    await approveGoogleConsent(page, email);
    // Back on the dashboard, which opens the Picker by itself (and forgets ?picker=open).
    await page.waitForURL(/\/dashboard(\?picker=open)?$/);
  } else {
    await page.getByTestId("choose-from-drive").click();
  }
  await clickInPicker(page, googlePicker(page).locator(`[data-file-id="${sheetId}"]`));
}

/**
 * Chooses `sheetId` in the Picker but stops the dashboard's registration call, as if the tab had
 * closed right then: Google has given SheetAPI the file, and nothing is registered yet (what
 * /auth/google?sheet_url= then registers at once, without the Picker).
 */
export async function pickWithoutRegistering(page: Page, sheetId: string, googleEmail?: string) {
  const isDashboard = (url: URL) => url.pathname === "/dashboard";
  const stop = (route: Route) =>
    route.request().postData()?.includes('"sheetUrl"') ? route.abort() : route.continue();
  await page.route(isDashboard, stop);
  await chooseFromDrive(page, sheetId, googleEmail);
  await expect(page.getByTestId("register-error")).toBeVisible();
  await page.unroute(isDashboard, stop);
}

async function accountEmail(page: Page): Promise<string> {
  return (await page.getByTestId("account-email").textContent())!.trim();
}

/**
 * Registers a sheet from the dashboard as its editor and returns the first key's value: the
 * signed-in person is made an editor of the sheet in Google, then chooses it in the Picker,
 * which is what proves access.
 */
export async function registerSheet(page: Page, sheetId: string): Promise<string> {
  await openRegisterForm(page);
  await shareSpreadsheet(sheetId, { members: { [await accountEmail(page)]: "writer" } });
  await chooseFromDrive(page, sheetId);
  await expect(page.getByTestId("register-result")).toBeVisible();
  return copyNewKey(page);
}

/**
 * Signs `email` in and registers `sheetId` through the private flow: /auth/google, Google's
 * consent, then the Picker proves access (`/dashboard?pick=`); the new key the result shows.
 */
export async function registerThroughGrant(page: Page, email: string, sheetId: string, title: string): Promise<string> {
  await signIn(page, email);
  await page.goto(`/auth/google?sheet_url=${sheetId}`);
  await approveGoogleConsent(page, email);
  await page.waitForURL(new RegExp(`/dashboard\\?pick=${sheetId}&via=grant$`));
  await expect(page.locator('[data-testid="register-form"][data-hydrated="true"]')).toBeVisible();
  await page.getByTestId("choose-pending").click();
  await clickInPicker(page, googlePicker(page).locator(`[data-file-id="${sheetId}"]`));
  await expect(page.getByTestId("register-result")).toContainText(title);
  return copyNewKey(page.getByTestId("register-result"));
}

/**
 * A one-time key's value, copied as the person would (selected and copied): until then, leaving
 * the registration result or the flashed key on a sheet's page asks first.
 */
export async function copyNewKey(scope: Page | Locator): Promise<string> {
  const value = scope.getByTestId("new-key-value").first();
  const text = (await value.textContent())!.trim();
  await value.dispatchEvent("copy");
  return text;
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
export async function choosePlan(
  page: Page,
  plan: "free_trial" | "starter" | "professional" | "business",
  label: string,
) {
  await page.goto("/dashboard/usage");
  await page.getByTestId("plan-select").selectOption(plan);
  await page.getByTestId("plan-submit").click();
  await expect(page.getByTestId("plan-name")).toHaveText(label);
}
