// A new owner's first hour, as the issue that walked it found it: the page that shows a one-time
// key stays quiet, every key comes with a first call to paste, trying the product on Free Trial
// says what is left and what a 429 means (and the owner can read without spending the plan), the
// key and plan controls confirm and show progress, and browsers never land on raw JSON.
import { expect, test, type Page } from "@playwright/test";
import { copyNewKey, keyRow, pickWithoutRegistering, registerSheet, registerThroughGrant } from "../support/dashboard";
import { createPrivateSpreadsheet as privateSpreadsheet } from "../support/emulator-admin";
import { E2E } from "../support/env";
import { signIn } from "../support/google-consent";

const OWNER = "firsthour@example.com";

/**
 * Signs `owner` up and registers a new private spreadsheet through /auth/google: Google's consent,
 * then the Picker proves access (`/dashboard?pick=`), and the registration result shows the key.
 */
async function registerPrivately(page: Page, owner: string, title: string): Promise<string> {
  const sheetId = await privateSpreadsheet(owner, title);
  await registerThroughGrant(page, owner, sheetId, title);
  return sheetId;
}

/** Requests the page makes in `ms`, after it had time to settle. */
async function requestsOver(page: Page, ms: number): Promise<string[]> {
  await page.waitForTimeout(1500);
  const seen: string[] = [];
  const note = (r: { method(): string; url(): string }) => seen.push(`${r.method()} ${r.url()}`);
  page.on("request", note);
  await page.waitForTimeout(ms);
  page.off("request", note);
  return seen;
}

test("after a private registration the key comes with a first call, and no page sends requests in a loop", async ({
  page,
  request,
  context,
}) => {
  const sheetId = await registerPrivately(page, OWNER, "First hour, private");
  const result = page.getByTestId("register-result");
  const key = await copyNewKey(result);
  expect(key).toMatch(/^shk_/);

  // Item 2: a ready call with the real address, a real tab and this key, and the docs page.
  const notice = result.getByTestId("new-key");
  const code = notice.getByTestId("quick-start-code");
  await expect(code).toContainText(`curl '${E2E.baseUrl}/api/v1/${sheetId}/Items?limit=5'`);
  await expect(code).toContainText(`X-API-Key: ${key}`);
  await code.getByRole("tab", { name: "JavaScript" }).click();
  await expect(code).toContainText(`fetch("${E2E.baseUrl}/api/v1/${sheetId}/Items?limit=5"`);
  await expect(notice.getByTestId("docs-link")).toHaveAttribute("href", `/docs/${sheetId}`);
  // ...and the call works as printed.
  const listed = await request.get(`/api/v1/${sheetId}/Items?limit=5`, { headers: { "X-API-Key": key } });
  expect(listed.status()).toBe(200);
  // Item 1: the page showing the key stays quiet.
  const onDashboard = await requestsOver(page, 3000);
  expect(onDashboard, onDashboard.join("\n")).toHaveLength(0);

  // Item 7: one tab is "1 tab"; a sheet read through the owner's grant never says "shared with the service".
  await result.getByTestId("open-sheet").click();
  await page.waitForURL(new RegExp(`/dashboard/sheets/${sheetId}$`));
  await expect(page.getByTestId("tabs")).toContainText("· 1 tab");
  await expect(page.getByTestId("tabs")).not.toContainText("1 tabs");
  await expect(page.getByTestId("sheet-access")).toContainText(`with the access ${OWNER} gave SheetAPI in Google`);
  // The sheet page offers the call with a placeholder for the key, and never the key itself.
  await expect(page.getByTestId("first-call").getByTestId("quick-start-code")).toContainText("YOUR_API_KEY");
  expect(await page.content()).not.toContain(key);

  // Item 1 as reported: a redirecting flow hands the sheet page a one-time key in a cookie (as
  // /auth/google does for a sheet Google already confirmed); the page shows it once, forgets it
  // with one request, and then sends nothing more.
  const flashedSheet = await privateSpreadsheet(OWNER, "First hour, flashed");
  await pickWithoutRegistering(page, flashedSheet);
  await page.goto(`/auth/google?sheet_url=${flashedSheet}`);
  await page.waitForURL(new RegExp(`/dashboard/sheets/${flashedSheet}$`));
  const flashed = await copyNewKey(page.getByTestId("new-key"));
  expect(flashed).toMatch(/^shk_/);
  await expect(page.getByTestId("new-key").getByTestId("quick-start-code")).toContainText(`X-API-Key: ${flashed}`);
  const onSheetPage = await requestsOver(page, 4000);
  expect(onSheetPage, onSheetPage.join("\n")).toHaveLength(0);
  expect((await context.cookies()).map((c) => c.name)).not.toContain("sheetapi_new_key");
  await page.reload();
  await expect(page.getByTestId("new-key")).toHaveCount(0);
  expect(await page.content()).not.toContain(flashed);
});

test("a new key is named, whole, explained and ready to call; the form starts over; revoke can be cancelled", async ({
  page,
  request,
}) => {
  const sheetId = await registerPrivately(page, "keys-first@example.com", "First hour, keys");
  await page.getByTestId("register-result").getByTestId("open-sheet").click();
  await page.waitForURL(new RegExp(`/dashboard/sheets/${sheetId}$`));
  await page.setViewportSize({ width: 390, height: 844 });

  await page.getByTestId("key-name").fill("Website");
  await page.getByTestId("new-key-schema").check();
  await page.getByTestId("create-key").click();
  const dialog = page.getByTestId("key-dialog");
  await expect(dialog.getByTestId("new-key-name")).toHaveText("“Website”");
  const value = dialog.getByTestId("new-key-value");
  const key = (await value.textContent())!.trim();
  expect(key).toMatch(/^shk_[0-9A-Za-z]{38}$/);
  // Not cut off on a phone: the whole key is inside its box and inside the screen.
  const fits = await value.evaluate(
    (el) => el.scrollWidth <= el.clientWidth && el.getBoundingClientRect().right <= window.innerWidth,
  );
  expect(fits).toBe(true);
  await expect(dialog).toContainText("X-API-Key");
  await expect(dialog.getByTestId("quick-start-code")).toContainText(`X-API-Key: ${key}`);
  await expect(dialog.getByTestId("docs-link")).toHaveAttribute("href", `/docs/${sheetId}`);
  await expect(dialog.getByTestId("quota-line")).toContainText("Free Trial plan, requests left");
  await copyNewKey(dialog);
  await dialog.getByTestId("close-key-dialog").click();

  // The next key starts from the defaults, not from the last key's permissions.
  await expect(page.getByTestId("key-name")).toHaveValue("");
  await expect(page.getByTestId("new-key-read")).toBeChecked();
  await expect(page.getByTestId("new-key-schema")).not.toBeChecked();

  // No name, or the name of a key the sheet has: said at the name, which takes the focus.
  await page.getByTestId("create-key").click();
  await expect(page.getByTestId("key-error")).toHaveText("Give the key a name.");
  await expect(page.getByTestId("key-name")).toBeFocused();
  await page.getByTestId("key-name").fill("Website");
  // Once the name is edited, the refusal of the old one no longer stands beside it.
  await expect(page.getByTestId("key-error")).toHaveCount(0);
  await page.getByTestId("create-key").click();
  await expect(page.getByTestId("key-error")).toContainText("This sheet already has a key named “Website”");
  await expect(page.getByTestId("key-name")).toBeFocused();
  await page.getByTestId("key-name").fill("");

  // Revoke asks first, and Cancel keeps the key working.
  const row = keyRow(page, "Website");
  await row.getByTestId("revoke").click();
  await expect(row.getByTestId("revoke-warning")).toContainText("permanent");
  await row.getByTestId("cancel-revoke").click();
  await expect(row.getByTestId("confirm-revoke")).toHaveCount(0);
  await page.reload();
  await expect(keyRow(page, "Website").getByTestId("key-revoked")).toHaveCount(0);
  expect((await request.get(`/api/${sheetId}/schema`, { headers: { "X-API-Key": key } })).status()).toBe(200);
});

test("on Free Trial: the quota shows beside Try it, a 429 says why and when it ends, and the owner's Try it does not spend the plan", async ({
  page,
  request,
  browser,
}) => {
  const sheetId = await registerPrivately(page, "trial@example.com", "First hour, trial");
  const key = await copyNewKey(page);
  await page.getByTestId("register-result").getByTestId("open-sheet").click();
  await page.waitForURL(new RegExp(`/dashboard/sheets/${sheetId}$`));
  const used = async () =>
    (
      (await (await request.get("/billing/usage", { headers: { "X-API-Key": key } })).json()) as {
        data: { current_period: { requests_used: number } };
      }
    ).data.current_period.requests_used;
  expect(await used()).toBe(0);

  // The owner's Try it: the API's answer, through the session, counted nowhere in the plan.
  const owner = page.getByTestId("owner-try-it");
  await expect(owner.getByTestId("tryit-quota")).toContainText("not counted against your plan");
  for (let i = 0; i < 6; i++) {
    await owner.getByTestId("tryit-send").click();
    await expect(owner.getByTestId("tryit-status")).toHaveText("200");
  }
  await expect(owner.getByTestId("tryit-body")).toContainText('"name": "second"');
  await expect(owner.getByTestId("tryit-headers")).toContainText(/x-cache\s*(HIT|MISS)/);
  await owner.getByTestId("tryit-row").fill("2");
  await owner.getByTestId("tryit-send").click();
  await expect(owner.getByTestId("tryit-body")).toContainText('"id": "2"');
  expect(await used()).toBe(0);

  // The owner on the sheet's public docs page tries it the same way: through the session, uncounted.
  await page.goto(`/docs/${sheetId}`);
  await expect(page.getByTestId("docs-owner-note")).toContainText("not counted against your plan");
  await expect(page.getByTestId("try-it")).toHaveCount(0);
  await page.getByTestId("owner-try-it").getByTestId("tryit-send").click();
  await expect(page.getByTestId("owner-try-it").getByTestId("tryit-status")).toHaveText("200");
  expect(await used()).toBe(0);

  // A visitor's Try it with the key: what is left, then a 429 explained, with the two ways on.
  const visitor = await browser.newPage();
  await visitor.goto(`/docs/${sheetId}`);
  // Before the examples: a trial's hour is shorter than running them all.
  await expect(visitor.getByTestId("trial-note")).toContainText("Free Trial: 5 requests a minute and 10 an hour");
  const tryIt = visitor.getByTestId("try-it");
  await expect(tryIt.getByTestId("tryit-quota")).toContainText("Free Trial: 5 a minute, 10 an hour");
  // A wrong key: a 401, and no plan's figures beside it.
  await tryIt.getByTestId("tryit-key").fill("shk_wrong");
  await tryIt.getByTestId("tryit-send").click();
  await expect(tryIt.getByTestId("tryit-status")).toHaveText("401");
  await expect(tryIt.getByTestId("tryit-quota")).toHaveText(
    /^The key was not accepted \(401\), so nothing was counted against any plan\./,
  );
  await tryIt.getByTestId("tryit-key").fill(key);
  await tryIt.getByTestId("tryit-tab").focus();
  await expect(tryIt.getByTestId("tryit-quota")).toContainText("Left: 5 of 5 this minute · 10 of 10 this hour");
  for (let left = 4; left >= 0; left--) {
    await tryIt.getByTestId("tryit-send").click();
    await expect(tryIt.getByTestId("tryit-quota")).toContainText(`${left} of 5 requests left`);
  }
  await tryIt.getByTestId("tryit-send").click();
  await expect(tryIt.getByTestId("tryit-status")).toHaveText("429");
  await expect(tryIt.getByTestId("tryit-limited")).toContainText("Rate limit of 5 requests per minute (burst) reached");
  await expect(tryIt.getByTestId("tryit-limited")).toContainText(
    /It resets at \d\d:\d\d:\d\d (UTC|GMT[+-]\d+|[A-Z]{3,4}), in about \d+ s/,
  );
  const waysOn = tryIt.getByTestId("tryit-ways-on");
  await expect(waysOn).toContainText(
    "If this is your sheet: read it with Try it as the owner (not counted against the plan) or change plan.",
  );
  await expect(waysOn.getByRole("link", { name: "read it with Try it as the owner" })).toHaveAttribute(
    "href",
    `/dashboard/sheets/${sheetId}#try-it`,
  );
  await expect(waysOn.getByRole("link", { name: "change plan" })).toHaveAttribute("href", "/dashboard/usage#plan");
  await expect(visitor.getByTestId("owner-try-link")).toHaveAttribute("href", `/dashboard/sheets/${sheetId}#try-it`);
  await visitor.close();

  // Limited keys or not, the owner can still read the sheet from the dashboard.
  await page.goto(`/dashboard/sheets/${sheetId}`);
  const quotaLine = page.getByTestId("first-call").getByTestId("quota-line");
  await expect(quotaLine).toContainText("0 of 5 this minute");
  await expect(quotaLine).toContainText(
    "Meanwhile read your sheet with Try it as the owner, which is not counted, or change plan.",
  );
  await expect(quotaLine.getByRole("link", { name: "change plan" })).toHaveAttribute("href", "/dashboard/usage#plan");
  await page.getByTestId("owner-try-it").getByTestId("tryit-send").click();
  await expect(page.getByTestId("owner-try-it").getByTestId("tryit-status")).toHaveText("200");
  expect(await used()).toBe(5);

  // The dashboard's home says so too, while the minute's limit is used.
  await page.goto("/dashboard");
  await expect(page.getByTestId("limit-reached")).toContainText(
    "the Free Trial plan's 5 requests this minute are used",
  );
});

test("Change plan and Continue with Google say they are working", async ({ page, browser }) => {
  const sheetId = await privateSpreadsheet("pending@example.com", "First hour, pending");
  await signIn(page, "pending@example.com");
  await registerSheet(page, sheetId).catch(() => undefined);
  await page.goto("/dashboard/usage");
  // Slow the server action down so its pending state can be seen.
  await page.route("**/dashboard/usage", async (route) => {
    if (route.request().method() === "POST") await new Promise((r) => setTimeout(r, 1500));
    await route.continue();
  });
  await page.getByTestId("plan-select").selectOption("starter");
  await page.getByTestId("plan-submit").click();
  await expect(page.getByTestId("plan-submit")).toHaveText("Changing plan…");
  await expect(page.getByTestId("plan-submit")).toBeDisabled();
  await expect(page.getByTestId("plan-name")).toHaveText("Starter");
  await expect(page.getByTestId("plan-submit")).toHaveText("Change plan");
  await expect(page.getByTestId("plan-result")).toHaveText(
    "You are now on Starter. Its limits apply to all your keys within 30 seconds.",
  );
  await expect(page.getByTestId("plan-select")).toHaveValue("starter");

  const visitor = await browser.newPage();
  await visitor.goto("/signin");
  await visitor.route("**/signin", async (route) => {
    if (route.request().method() === "POST") await new Promise((r) => setTimeout(r, 1500));
    await route.continue();
  });
  await visitor.getByTestId("sign-in-google").click();
  await expect(visitor.getByTestId("sign-in-google")).toHaveText("Opening Google…");
  await visitor.close();
});

test("browsers get pages, API clients get JSON", async ({ page, request }) => {
  // Unknown pages: the 404 page, with a 404 status.
  const res = await page.goto("/pricing");
  expect(res!.status()).toBe(404);
  expect(res!.headers()["content-type"]).toContain("text/html");
  await expect(page.getByTestId("not-found")).toContainText("Page not found");
  await page.getByRole("link", { name: "Home" }).click();
  await page.waitForURL(`${E2E.baseUrl}/`);

  // The landing page's links all lead to pages.
  for (const link of await page.locator("header a").all()) {
    const href = await link.getAttribute("href");
    const answer = await request.get(href!, { headers: { accept: "text/html" }, maxRedirects: 5 });
    expect(answer.headers()["content-type"], href!).toContain("text/html");
  }

  // The favicon, the app icons, the social preview image and robots.txt exist.
  for (const [path, type] of [
    ["/favicon.ico", "image/"],
    ["/favicon.svg", "image/svg+xml"],
    ["/apple-touch-icon.png", "image/png"],
    ["/icon-512.png", "image/png"],
    ["/og.png", "image/png"],
    ["/robots.txt", "text/plain"],
    ["/manifest.webmanifest", "json"],
  ] as const) {
    const asset = await request.get(path);
    expect(asset.status(), path).toBe(200);
    expect(asset.headers()["content-type"], path).toContain(type);
  }
  await page.goto("/");
  await expect(page.locator('link[rel="icon"]').first()).toHaveAttribute("href", /favicon/);
  await expect(page.locator('meta[property="og:image"]')).toHaveAttribute("content", `${E2E.baseUrl}/og.png`);
  expect((await request.get("/robots.txt")).ok()).toBe(true);
  expect(await (await request.get("/robots.txt")).text()).toContain("Disallow: /dashboard");

  // API clients keep the envelope: unknown routes, other methods, and every /api/* path whoever asks.
  for (const [method, path, accept] of [
    ["GET", "/pricing", "application/json"],
    ["GET", "/pricing", "*/*"],
    ["POST", "/pricing", "text/html"],
    ["GET", "/api/nope", "text/html"],
    ["GET", "/api/v1", "text/html"],
  ] as const) {
    const answer = await request.fetch(path, { method, headers: { accept } });
    expect(answer.status(), `${method} ${path} ${accept}`).toBe(404);
    expect(await answer.json()).toMatchObject({ success: false, error: "not_found" });
  }
  // Key routes check the key first: a keyless call from a browser still gets the envelope.
  const keyless = await request.fetch(`/api/v1/${E2E.demoSheetId}/Products`, {
    method: "DELETE",
    headers: { accept: "text/html" },
  });
  expect(keyless.status()).toBe(401);
  expect(await keyless.json()).toMatchObject({ success: false, error: "unauthorized" });
});
