// Keyboard reach beyond what axe-core checks: a code block wider than its box on the docs page
// takes focus and scrolls with the arrow keys. (axe-core over every page, light and dark, at 390
// and 1280 px runs in every-page.spec.ts, in the same walk as the layout checks.)
import { expect, test } from "@playwright/test";
import { registerSheet } from "../support/dashboard";
import { createSpreadsheet } from "../support/emulator-admin";
import { signIn } from "../support/google-consent";

test("a code block wider than its box on the docs page is reached with Tab and scrolls with the arrow keys", async ({
  page,
}) => {
  // A column name longer than the desktop column: the example answer's line cannot fit.
  const column = `delivery_instructions_${"and_more_".repeat(20)}end`;
  const sheetId = await createSpreadsheet("Wide", [
    ["id", column],
    [1, "leave at the door"],
  ]);
  await signIn(page, "axe-keyboard@example.com");
  await registerSheet(page, sheetId);
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(`/docs/${sheetId}`);
  await page.waitForLoadState("networkidle");
  const wide = await page
    .locator("pre")
    .evaluateAll((els) =>
      els.filter((el) => el.scrollWidth > el.clientWidth + 1).map((el) => el.getAttribute("tabindex")),
    );
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
