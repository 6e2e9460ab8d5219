// The repository's docs pages served by the site at /docs/reference/<page>: each renders with its
// title, links between and within them land on their headings, the guide links to them, a page
// that is not one of them is a 404, and they fit a phone in both colour schemes (long code and
// wide tables scroll inside their own box, never the page).
import { expect, test, type Page } from "@playwright/test";

const PAGES = [
  ["api", "API reference"],
  ["webhooks", "Webhooks and change events"],
  ["security", "Security review: OWASP API Security Top 10 (2023)"],
  ["operations", "Operations"],
  ["architecture", "Architecture"],
] as const;

const PHONE = { width: 390, height: 844 };

async function fitsThePhone(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(PHONE.width);
  // Every code block and table box stays within the page, however long its lines.
  const boxes = page.getByTestId("reference-page").locator(":scope > pre, :scope > .reference-table, li > pre");
  for (const box of await boxes.all()) {
    expect(
      await box.evaluate((el) => el.getBoundingClientRect().right <= document.documentElement.clientWidth + 0.5),
    ).toBe(true);
  }
}

test("each reference page renders with its title and fits a phone, light and dark", async ({ page }) => {
  await page.setViewportSize(PHONE);
  for (const colorScheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme });
    for (const [name, title] of PAGES) {
      const res = await page.goto(`/docs/reference/${name}`);
      expect(res?.status()).toBe(200);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(title);
      await expect(page).toHaveTitle(`${title} · SheetAPI`);
      await expect(
        page.getByRole("navigation", { name: "Reference pages" }).getByRole("link", { name: "API" }),
      ).toBeVisible();
      await fitsThePhone(page);
    }
  }
  // Long commands scroll inside their box: the staging recipe's lines are wider than a phone.
  await page.goto("/docs/reference/operations#staging-against-emulatorsgoogle");
  const recipe = page.getByTestId("reference-page").locator("pre").filter({ hasText: "generateKeyPairSync" });
  expect(
    await recipe.evaluate((el) => el.scrollWidth > el.clientWidth && getComputedStyle(el).overflowX === "auto"),
  ).toBe(true);
  await page.screenshot({ path: test.info().outputPath("operations-phone-dark.png"), fullPage: false });
  await page.emulateMedia({ colorScheme: "light" });
  await page.goto("/docs/reference/api#routes");
  await page.screenshot({ path: test.info().outputPath("api-routes-phone-light.png"), fullPage: false });
});

test("links between and within the pages land on their headings", async ({ page }) => {
  await page.goto("/docs/reference/api");
  // Within the page: the contents list to a heading further down.
  await page.getByTestId("reference-page").getByRole("link", { name: "browser keys", exact: true }).click();
  await expect(page).toHaveURL(/\/docs\/reference\/api#browser-publishable-keys$/);
  await expect(page.locator("#browser-publishable-keys")).toBeInViewport();
  // To another page, written for GitHub as `security.md#access-to-a-sheet`.
  await page
    .getByTestId("reference-page")
    .getByRole("link", { name: "security.md, Access to a sheet" })
    .first()
    .click();
  await expect(page).toHaveURL(/\/docs\/reference\/security#access-to-a-sheet$/);
  await expect(page.getByRole("heading", { name: "Access to a sheet" })).toBeInViewport();
  // A file the site does not serve is named, not linked.
  await page.goto("/docs/reference/operations");
  await expect(page.getByTestId("reference-page").getByRole("link", { name: ".env.example" })).toHaveCount(0);
  await expect(page.getByTestId("reference-page").locator("code", { hasText: ".env.example" }).first()).toBeVisible();
});

test("the guide's sections link to their full reference", async ({ page }) => {
  await page.goto("/docs");
  await page
    .getByTestId("guide-filters")
    .getByRole("link", { name: /Full reference/ })
    .click();
  await expect(page).toHaveURL(/\/docs\/reference\/api#listing$/);
  await expect(page.getByRole("heading", { name: "Listing", exact: true })).toBeInViewport();
});

test("a page that is not a reference page is a 404", async ({ page, request }) => {
  for (const path of [
    "/docs/reference/nope",
    "/docs/reference/README",
    "/docs/reference/..%2F..%2Fpackage.json",
    "/docs/reference/security.md",
  ]) {
    const res = await page.goto(path);
    expect(res?.status(), path).toBe(404);
  }
  expect((await request.get("/docs/reference/..%2Fsecurity")).status()).toBe(404);
  const index = await page.goto("/docs/reference");
  expect(index?.status()).toBe(200);
  await expect(page.getByRole("link", { name: "Operations" })).toHaveAttribute("href", "/docs/reference/operations");
});
