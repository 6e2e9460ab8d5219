// axe-core over every page, light and dark, at a phone's 390 px and a desktop's 1280 px: no serious
// or critical violation (contrast, names, keyboard reach of scrollable boxes, ...). A failure lists
// each rule with the first few elements it found, so the report says what to fix.
import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { registerSheet } from "../support/dashboard";
import { createSpreadsheet } from "../support/emulator-admin";
import { everyPage, forEachView } from "../support/every-page";
import { signIn } from "../support/google-consent";

const SIZES = [
  { name: "390", width: 390, height: 844 },
  { name: "1280", width: 1280, height: 800 },
] as const;

async function seriousViolations(page: Page): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page }).analyze();
  return violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id} (${v.nodes.length}): ${v.nodes.slice(0, 3).map((n) => `${n.target.join(" ")} ${n.failureSummary?.split("\n").slice(1, 2).join("") ?? ""}`).join(" | ")}`);
}

test("every page, light and dark, at 390 and 1280 px: no serious or critical axe violation", async ({ page, browser }) => {
  test.setTimeout(480_000);
  const site = await everyPage(page, browser, {
    owner: "axe-owner@example.com",
    title: "Orders",
    rows: [["id", "name", "email", "price"], [1, "Ada Lovelace", "ada@example.com", 12.5], [2, "Grace Hopper", "grace@example.com", 7]],
  });
  const found: string[] = [];
  await forEachView(site.pages, SIZES, async ({ name, on }, size, colorScheme) => {
    for (const v of await seriousViolations(on)) found.push(`${name} ${size.name} ${colorScheme}: ${v}`);
  });
  await site.close();
  expect(found, found.join("\n")).toEqual([]);
});

test("a code block wider than its box on the docs page is reached with Tab and scrolls with the arrow keys", async ({ page }) => {
  // A column name longer than the desktop column: the example answer's line cannot fit.
  const column = `delivery_instructions_${"and_more_".repeat(20)}end`;
  const sheetId = await createSpreadsheet("Wide", [["id", column], [1, "leave at the door"]]);
  await signIn(page, "axe-keyboard@example.com");
  await registerSheet(page, sheetId);
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(`/docs/${sheetId}`);
  await page.waitForLoadState("networkidle");
  const wide = await page.locator("pre").evaluateAll((els) => els.filter((el) => el.scrollWidth > el.clientWidth + 1).map((el) => el.getAttribute("tabindex")));
  expect(wide.length, "the docs page has a box wider than its frame").toBeGreaterThan(0);
  expect(wide, "every such box takes keyboard focus").toEqual(wide.map(() => "0"));

  // Tab from the top of the page until focus lands in a box that scrolls sideways.
  await page.locator("body").focus();
  let reached = false;
  for (let i = 0; i < 150 && !reached; i++) {
    await page.keyboard.press("Tab");
    reached = await page.evaluate(() => {
      const el = document.activeElement;
      return !!el && el.tagName === "PRE" && el.scrollWidth > el.clientWidth + 1;
    });
  }
  expect(reached, "Tab reaches the wide box").toBe(true);
  await page.keyboard.press("ArrowRight");
  await page.keyboard.press("ArrowRight");
  await expect.poll(() => page.evaluate(() => document.activeElement!.scrollLeft)).toBeGreaterThan(0);
});
