// Pages rendered per request run only the scripts this server wrote for that answer: their
// Content-Security-Policy names a nonce made for the answer (no 'unsafe-inline' for scripts),
// every script in the HTML carries it, and the pages still come alive in a real browser (the
// dashboard's buttons work, the Picker loads) without a single policy violation.
import { expect, test, type Page } from "@playwright/test";
import { registerSheet } from "../support/dashboard";
import { createSpreadsheet } from "../support/emulator-admin";
import { signIn } from "../support/google-consent";

const scriptSources = (policy: string) =>
  policy
    .split(";")
    .map((d) => d.trim())
    .find((d) => d.startsWith("script-src"))!
    .split(/\s+/)
    .slice(1);

/** Records the policy violations a page reports, from its first script on. */
async function watchViolations(page: Page): Promise<() => Promise<string[]>> {
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { __violations: string[] }).__violations = seen;
    document.addEventListener("securitypolicyviolation", (e) => seen.push(`${e.violatedDirective} ${e.blockedURI}`));
  });
  const consoleErrors: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error" && /Content Security Policy/i.test(m.text())) consoleErrors.push(m.text());
  });
  return async () => [
    ...consoleErrors,
    ...(await page.evaluate(() => (window as unknown as { __violations: string[] }).__violations)),
  ];
}

test("each page answer has its own nonce, every script in it carries that nonce, and inline scripts need it", async ({
  request,
}) => {
  for (const path of ["/", "/signin", "/docs"]) {
    const [first, second] = [await request.get(path), await request.get(path)];
    const policy = first.headers()["content-security-policy"]!;
    const sources = scriptSources(policy);
    const nonce = sources.find((s) => s.startsWith("'nonce-"))?.slice(7, -1);
    expect(nonce, `${path}: ${policy}`).toMatch(/^[A-Za-z0-9+/]{22}==$/);
    expect(sources, path).toContain("'strict-dynamic'");
    expect(sources, path).not.toContain("'unsafe-inline'");
    expect(
      scriptSources(second.headers()["content-security-policy"]!),
      `${path}: a new nonce per answer`,
    ).not.toContain(`'nonce-${nonce}'`);
    const scripts = [...(await first.text()).matchAll(/<script\b[^>]*>/g)].map((m) => m[0]);
    expect(scripts.length, path).toBeGreaterThan(0);
    for (const tag of scripts) expect(tag, path).toContain(`nonce="${nonce}"`);
  }
});

test("the 404 page keeps a policy: with the answer's nonce under the pages' paths, the static one elsewhere, whatever the case", async ({
  request,
  page,
}) => {
  const html = { Accept: "text/html" };
  const under = await request.get("/docs/no/such/page", { headers: html });
  expect(under.status()).toBe(404);
  const nonce = scriptSources(under.headers()["content-security-policy"]!)
    .find((s) => s.startsWith("'nonce-"))
    ?.slice(7, -1);
  expect(nonce).toBeTruthy();
  const body = await under.text();
  for (const tag of [
    ...(body.match(/<script\b[^>]*>/g) ?? []),
    ...(body.match(/<link\b[^>]*as="script"[^>]*>/g) ?? []),
  ])
    expect(tag).toContain(`nonce="${nonce}"`);
  for (const path of ["/Docs", "/SIGNIN", "/Dashboard/x", "/pricing"]) {
    const res = await request.get(path, { headers: html });
    expect([path, res.status()]).toEqual([path, 404]);
    expect(res.headers()["content-security-policy"], path).toContain("frame-ancestors 'none'");
  }
  const violations = await watchViolations(page);
  await page.goto("/dashboard/no/such/page");
  await expect(page.getByTestId("not-found")).toBeVisible();
  await page.waitForLoadState("networkidle");
  expect(await violations()).toEqual([]);
});

test("the pages come alive under the policy: no violation on the landing page, sign-in, the dashboard, a sheet, its docs, or the Picker", async ({
  page,
  browser,
}) => {
  test.setTimeout(180_000);
  const violations = await watchViolations(page);
  const email = "policy-check@example.com";
  const sheetId = await createSpreadsheet("Policy check");
  await page.goto("/");
  await page.waitForLoadState("networkidle");
  await signIn(page, email);
  // Client components at work: the register form, Google's Picker (its loader script loaded by
  // the app's own, and its frame), the new key's dialog and its Copy button.
  await registerSheet(page, sheetId);
  await page.goto(`/dashboard/sheets/${sheetId}`);
  await page.waitForLoadState("networkidle");
  await page.goto(`/docs/${sheetId}`);
  await page.waitForLoadState("networkidle");
  expect(await violations()).toEqual([]);

  // A visitor who is not signed in, on the public pages.
  const visitor = await browser.newPage();
  const visitorViolations = await watchViolations(visitor);
  for (const path of ["/", "/signin", "/docs", `/docs/${sheetId}`]) {
    await visitor.goto(path);
    await visitor.waitForLoadState("networkidle");
  }
  expect(await visitorViolations()).toEqual([]);
  await visitor.close();
});
