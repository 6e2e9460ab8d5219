// The private flow against links from other sites: GET /auth/google?sheet_url= carries the owner's
// session from any page (SameSite=Lax), so when another site started the navigation nothing is
// registered and no key made; the dashboard asks the owner, and their click registers it. The key
// the flow hands to the sheet page travels sealed, never as its value.
import { expect, test, type Page } from "@playwright/test";
import { copyNewKey, pickWithoutRegistering } from "../support/dashboard";
import { createPrivateSpreadsheet } from "../support/emulator-admin";
import { E2E } from "../support/env";
import { approveGoogleConsent, signIn } from "../support/google-consent";

const OTHER_SITE = "http://other-site.example";

/** A page of another site with a link to `target`, followed as a visitor would. */
async function followLinkFromOtherSite(page: Page, target: string) {
  await page.route(`${OTHER_SITE}/**`, (route) =>
    route.fulfill({ contentType: "text/html", body: `<a id="go" href="${target}">Free spreadsheet templates</a>` }),
  );
  await page.goto(`${OTHER_SITE}/`);
  await page.click("#go");
}

test("a link from another site registers nothing: the dashboard asks, and the owner's click registers", async ({
  page,
}) => {
  const owner = "cross-site@example.com";
  const sheetId = await createPrivateSpreadsheet(owner, "Cross-site ledger");
  await signIn(page, owner);
  // Google has already given SheetAPI this file: before, a plain GET registered it at once.
  await pickWithoutRegistering(page, sheetId, owner);

  // Requests that say another site sent them, as browsers do, land on the question.
  for (const headers of [
    { "Sec-Fetch-Site": "cross-site" },
    { "Sec-Fetch-Site": "same-site" },
    { Referer: `${OTHER_SITE}/page` },
  ] as Record<string, string>[]) {
    const res = await page.request.get(`/auth/google?sheet_url=${sheetId}`, { headers, maxRedirects: 0 });
    expect(res.status(), JSON.stringify(headers)).toBe(302);
    expect(res.headers().location).toBe(`/dashboard?register=${sheetId}`);
    expect(res.headers()["set-cookie"] ?? "").not.toContain("sheetapi_new_key");
  }
  // A form on another site posting the confirmation is refused.
  const forged = await page.request.post(`/auth/google?sheet_url=${sheetId}`, {
    headers: { Origin: OTHER_SITE },
    maxRedirects: 0,
  });
  expect(forged.status()).toBe(403);
  expect(await forged.json()).toMatchObject({ success: false, error: "forbidden" });

  await followLinkFromOtherSite(page, `${E2E.baseUrl}/auth/google?sheet_url=${sheetId}`);
  await page.waitForURL(`${E2E.baseUrl}/dashboard?register=${sheetId}`);
  await expect(page.getByTestId("confirm-sheet-id")).toHaveText(sheetId);
  await expect(page.getByTestId("sheet-list")).toHaveCount(0);
  expect((await page.context().cookies()).map((c) => c.name)).not.toContain("sheetapi_new_key");

  // The owner confirms from the dashboard: registered, and the first key shown once on its page.
  const answer = page.waitForResponse(
    (r) => r.request().method() === "POST" && new URL(r.url()).pathname === "/auth/google",
  );
  await page.getByTestId("confirm-register").click();
  const setCookies = await (await answer).headerValues("set-cookie");
  const flash = setCookies.find((c) => c.startsWith("sheetapi_new_key="));
  expect(flash).toMatch(/^sheetapi_new_key=v1\.[\w.-]+; Path=\/dashboard; HttpOnly; SameSite=Lax; Max-Age=120$/);
  expect(flash).not.toContain("shk_");
  await page.waitForURL(`${E2E.baseUrl}/dashboard/sheets/${sheetId}`);
  const key = await copyNewKey(page.getByTestId("new-key"));
  expect(key).toMatch(/^shk_/);
  expect(flash).not.toContain(key.slice(4));
  expect((await page.request.get(`/api/v1/${sheetId}/Items`, { headers: { "X-API-Key": key } })).status()).toBe(200);
  // A key cookie this service did not seal shows nothing.
  await page.waitForLoadState("networkidle");
  await page.context().addCookies([
    {
      name: "sheetapi_new_key",
      value: encodeURIComponent(JSON.stringify({ sheetId, value: "shk_plantedValueThePageMustNotShow0000" })),
      url: `${E2E.baseUrl}/dashboard`,
    },
  ]);
  await page.reload();
  await expect(page.getByTestId("new-key")).toHaveCount(0);
});

test("without a grant, the confirmation goes on to Google's consent as the link would have", async ({ page }) => {
  const owner = "cross-site-new@example.com";
  const sheetId = await createPrivateSpreadsheet(owner, "Cross-site, no grant yet");
  await signIn(page, owner);
  await followLinkFromOtherSite(page, `${E2E.baseUrl}/auth/google?sheet_url=${sheetId}`);
  await page.waitForURL(`${E2E.baseUrl}/dashboard?register=${sheetId}`);
  // "Not now" leaves everything as it was.
  await page.getByTestId("cancel-register").click();
  await page.waitForURL(`${E2E.baseUrl}/dashboard`);
  await expect(page.getByTestId("confirm-registration")).toHaveCount(0);

  await page.goto(`/dashboard?register=${sheetId}`);
  await page.getByTestId("confirm-register").click();
  await approveGoogleConsent(page, owner);
  await page.waitForURL(new RegExp(`/dashboard\\?pick=${sheetId}&via=grant$`));
  await expect(page.getByTestId("pick-prompt")).toContainText(sheetId);
});

test("the dashboard shows only a spreadsheet id from its own redirects, never other text from the URL", async ({
  page,
}) => {
  await signIn(page, "cross-site-text@example.com");
  const text = "Your account is suspended. Call +1 555 0100";
  await page.goto(`/dashboard?register=${encodeURIComponent(text)}&pick=${encodeURIComponent(text)}`);
  await expect(page.getByTestId("register-form")).toBeVisible();
  await expect(page.getByTestId("confirm-registration")).toHaveCount(0);
  await expect(page.getByTestId("pick-prompt")).toHaveCount(0);
  await expect(page.getByText("suspended")).toHaveCount(0);
});
