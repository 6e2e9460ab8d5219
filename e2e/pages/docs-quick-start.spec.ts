// A newcomer on a phone makes a first call from the top of a sheet's docs page: where the key
// comes from, then a read and a create of the sheet's own first tab, pasted as shown (only the
// key put in). The guide shows the same three steps with placeholders.
import { expect, test, type Locator, type Page } from "@playwright/test";
import { registerSheet } from "../support/dashboard";
import { createSpreadsheet } from "../support/emulator-admin";
import { E2E } from "../support/env";
import { signIn } from "../support/google-consent";

const PHONE = { width: 390, height: 844 };

/** The example in one language, as the copy button would give it. */
async function exampleIn(block: Locator, label: string): Promise<string> {
  await block.getByRole("tab", { name: label }).click();
  return (await block.locator("pre").textContent())!;
}

/** Runs a JavaScript example as a developer would paste it into Node, with their key; answers its JSON. */
async function runJavaScript(code: string, key: string): Promise<{ success: boolean; data: unknown }> {
  const AsyncFunction = Object.getPrototypeOf(async () => {}).constructor as new (
    body: string,
  ) => () => Promise<{ success: boolean; data: unknown }>;
  return new AsyncFunction(`${code.replaceAll("YOUR_API_KEY", key)}\nreturn answer;`)();
}

async function fitsTheScreen(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(PHONE.width);
  // Code wraps inside its block rather than scrolling sideways.
  for (const pre of await page.getByTestId("docs-quick-start").locator("pre").all()) {
    expect(await pre.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
  }
}

test("a sheet's docs open with a quick start whose read and create work as pasted", async ({ page, browser }) => {
  const sheetId = await createSpreadsheet(
    "Quick start test",
    [
      ["id", "name", "email", "price"],
      [1, "Ada Lovelace", "ada.lovelace.with.a.long.address@example.com", 12.5],
    ],
    [{ title: "Notes", rows: [["text"], ["hello"]] }],
  );
  await signIn(page, "quick-start@example.com");
  const key = await registerSheet(page, sheetId);

  const visitor = await (await browser.newContext({ viewport: PHONE })).newPage();
  await visitor.goto(`/docs/${sheetId}`);
  const quickStart = visitor.getByTestId("docs-quick-start");
  // At the top: the first section after the page's header, before Try it and the reference.
  await expect(visitor.locator("header + section")).toHaveAttribute("data-testid", "docs-quick-start");
  await expect(quickStart.getByRole("heading", { level: 2 })).toHaveText("Quick start");
  await expect(quickStart.getByTestId("quick-start-step")).toHaveCount(3);

  // 1. Where the key comes from, which kind, and how it is sent.
  const keyStep = quickStart.getByTestId("quick-start-step").nth(0);
  await expect(keyStep).toContainText("secret key");
  await expect(keyStep).toContainText("publishable");
  await expect(keyStep).toContainText("X-API-Key");
  await expect(keyStep.getByTestId("quick-start-keys-link")).toHaveAttribute(
    "href",
    `/dashboard/sheets/${sheetId}#api-keys`,
  );

  // 2. A first read of the first tab, curl first.
  const read = quickStart.getByTestId("quick-start-read");
  await expect(quickStart.getByTestId("quick-start-step").nth(1)).toContainText("Read the first rows of Items");
  await expect(read.locator("pre")).toHaveAttribute("data-language", "curl");
  const readCurl = await exampleIn(read, "curl");
  expect(readCurl).toContain(`curl '${E2E.baseUrl}/api/v1/${sheetId}/Items?limit=5'`);
  expect(readCurl).toContain('-H "X-API-Key: YOUR_API_KEY"');

  // 3. A first create with the tab's real column names, as a JSON body.
  const create = quickStart.getByTestId("quick-start-create");
  const createCurl = await exampleIn(create, "curl");
  expect(createCurl).toContain(`curl -X POST '${E2E.baseUrl}/api/v1/${sheetId}/Items'`);
  expect(createCurl).toContain('-H "Content-Type: application/json"');
  const body = JSON.parse(/-d '(.*)'/s.exec(createCurl)![1]!) as Record<string, unknown>;
  expect(Object.keys(body).sort()).toEqual(["email", "name", "price"]);
  await fitsTheScreen(visitor);

  // Pasted with a real key, both examples work.
  const rows = await runJavaScript(await exampleIn(read, "JavaScript"), key);
  expect(rows).toMatchObject({ success: true, data: [{ id: "1", name: "Ada Lovelace" }] });
  const created = await runJavaScript(await exampleIn(create, "JavaScript"), key);
  expect(created).toMatchObject({
    success: true,
    data: {
      created: 1,
      rows: [{ id: "2", ...Object.fromEntries(Object.keys(body).map((k) => [k, expect.any(String)])) }],
    },
  });
  await fitsTheScreen(visitor);

  // "More on keys" lands on the page's own keys section.
  await keyStep.getByRole("link", { name: "More on keys" }).click();
  await expect(visitor.locator("#keys")).toBeInViewport();
});

test("the guide opens with the same quick start, with placeholders to replace", async ({ page }) => {
  await page.setViewportSize(PHONE);
  await page.goto("/docs");
  const quickStart = page.getByTestId("docs-quick-start");
  await expect(quickStart.getByTestId("quick-start-step")).toHaveCount(3);
  await expect(quickStart.getByTestId("quick-start-step").nth(0)).toContainText("X-API-Key");
  expect(await exampleIn(quickStart.getByTestId("quick-start-read"), "curl")).toContain(
    `${E2E.baseUrl}/api/v1/YOUR_SHEET_ID/Sheet1?limit=5`,
  );
  expect(await exampleIn(quickStart.getByTestId("quick-start-create"), "curl")).toContain(
    `-d '{"name":"Ada Lovelace","email":"ada@example.com"}'`,
  );
  await expect(quickStart).toContainText("/docs/{sheetId}");
  await fitsTheScreen(page);
});
