// A sheet's public docs page, as a developer deciding whether to use the API sees it: every tab
// and column of the live schema, a working "try it" panel, phone and desktop layouts, a 404 for
// an unknown sheet, and a schema change showing after refresh-schema.
import { expect, test } from "@playwright/test";
import { registerSheet } from "../support/dashboard";
import { copySpreadsheet, editCells, shareSpreadsheet } from "../support/emulator-admin";
import { E2E } from "../support/env";
import { signIn } from "../support/google-consent";

test("the demo sheet's docs show every tab and column, and try it answers rows or the 401 envelope", async ({
  page,
  browser,
  request,
}, testInfo) => {
  const sheetId = await copySpreadsheet(E2E.demoSheetId);
  await signIn(page, "docs@example.com");
  const key = await registerSheet(page, sheetId);
  const schema = (await (await request.get(`/api/${sheetId}/schema`, { headers: { "X-API-Key": key } })).json())
    .data as { tabs: { name: string; columns: { name: string; type: string }[] }[] };

  // Anyone may read the docs: a fresh browser, not signed in.
  const visitor = await (await browser.newContext()).newPage();
  const res = await visitor.goto(`/docs/${sheetId}`);
  expect(res?.status()).toBe(200);
  await expect(visitor.getByTestId("docs-title")).toHaveText("Acme Store");
  await expect(visitor.getByTestId("docs-tab-name")).toHaveText(schema.tabs.map((t) => t.name));
  for (const tab of schema.tabs) {
    const section = visitor.locator(`[data-testid="docs-tab"][data-tab-name="${tab.name}"]`);
    await expect(section.getByTestId("docs-column")).toHaveCount(tab.columns.length);
    for (const [i, column] of tab.columns.entries())
      await expect(section.getByTestId("docs-column").nth(i)).toContainText(`${column.name}${column.type}`);
  }
  // Examples use the real address, tab and column names.
  await expect(visitor.locator('[data-tab-name="Products"] pre').first()).toContainText(`/api/v1/${sheetId}/Products`);
  await expect(visitor.getByTestId("docs-plan")).toHaveText("Free Trial");

  // Try it: a valid key returns rows and the rate-limit headers.
  await visitor.getByTestId("tryit-key").fill(key);
  await visitor.getByTestId("tryit-tab").selectOption("Products");
  await visitor.getByTestId("tryit-send").click();
  await expect(visitor.getByTestId("tryit-status")).toHaveText("200");
  await expect(visitor.getByTestId("tryit-body")).toContainText('"success": true');
  await expect(visitor.getByTestId("tryit-body")).toContainText("Desk lamp");
  await expect(visitor.getByTestId("tryit-headers")).toContainText("x-ratelimit-remaining");
  // ...and a bad one the 401 envelope.
  await visitor.getByTestId("tryit-key").fill("shk_notARealKey0000000000000000000000000");
  await visitor.getByTestId("tryit-send").click();
  await expect(visitor.getByTestId("tryit-status")).toHaveText("401");
  await expect(visitor.getByTestId("tryit-body")).toContainText('"error": "unauthorized"');

  for (const [name, size] of [
    ["phone", { width: 390, height: 844 }],
    ["desktop", { width: 1280, height: 900 }],
  ] as const) {
    await visitor.setViewportSize(size);
    for (const scheme of ["light", "dark"] as const) {
      await visitor.emulateMedia({ colorScheme: scheme });
      const path = testInfo.outputPath(`docs-${name}-${scheme}.png`);
      await visitor.screenshot({ path, fullPage: name === "phone" });
      await testInfo.attach(`docs-${name}-${scheme}`, { path, contentType: "image/png" });
    }
    // Nothing spills sideways on a phone.
    expect(await visitor.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1)).toBe(true);
  }
});

test("an unknown sheet's docs answer a 404 page", async ({ page }) => {
  const res = await page.goto("/docs/1NoSuchSheetRegisteredHere00000000000000000");
  expect(res?.status()).toBe(404);
  await expect(page.getByTestId("docs-not-found")).toBeVisible();
  const openapi = await page.request.get("/docs/1NoSuchSheetRegisteredHere00000000000000000/openapi.json");
  expect(openapi.status()).toBe(404);
  expect(await openapi.json()).toMatchObject({ success: false, error: "not_found" });
});

test("a column added in the sheet shows in the docs and the OpenAPI after refresh-schema", async ({
  page,
  request,
}) => {
  const sheetId = await copySpreadsheet(E2E.demoSheetId);
  await signIn(page, "docs-refresh@example.com");
  const key = await registerSheet(page, sheetId);
  await editCells(sheetId, "'Products'!H1", [["supplier"]]);
  const openapiColumns = async () =>
    Object.keys(
      (await (await request.get(`/docs/${sheetId}/openapi.json`)).json()).components.schemas.Products_Row.properties,
    );

  await page.goto(`/docs/${sheetId}`);
  await expect(
    page.locator('[data-tab-name="Products"] [data-testid="docs-column"]').filter({ hasText: "supplier" }),
  ).toHaveCount(0);
  expect(await openapiColumns()).not.toContain("supplier");

  expect((await request.post(`/api/${sheetId}/refresh-schema`, { headers: { "X-API-Key": key } })).status()).toBe(200);
  await page.reload();
  await expect(
    page.locator('[data-tab-name="Products"] [data-testid="docs-column"]').filter({ hasText: "supplier" }),
  ).toHaveCount(1);
  expect(await openapiColumns()).toContain("supplier");
});

test("the owner can keep the sheet's own rows off its public docs page", async ({ page, request }) => {
  const sheetId = await copySpreadsheet(E2E.demoSheetId);
  await shareSpreadsheet(sheetId, { linkAccess: "reader" }); // anyone with the link can view it
  await signIn(page, "docs-examples@example.com");
  await registerSheet(page, sheetId);
  const docsText = async () => (await request.get(`/docs/${sheetId}`)).text();
  expect(await docsText()).toContain("Desk lamp");

  await page.goto(`/dashboard/sheets/${sheetId}`);
  await page.getByTestId("docs-examples-toggle").uncheck();
  await expect(page.getByTestId("docs-examples").getByRole("status")).toHaveText(
    "Saved: the docs page shows made-up values.",
  );
  const off = await docsText();
  expect(off).not.toContain("Desk lamp");
  expect(off).toContain(" (made up)");
});
