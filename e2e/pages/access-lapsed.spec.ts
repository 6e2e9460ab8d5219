// Access follows Google (DECISIONS 18): an editor removed in Google is suspended, the owner takes
// the sheet back, and a registration made before proof existed is served during its grace; on a
// phone and on a desktop.
import { expect, test, type Page } from "@playwright/test";
import postgres from "postgres";
import { registerSheet, registerThroughGrant } from "../support/dashboard";
import { createSpreadsheet, shareSpreadsheet } from "../support/emulator-admin";
import { E2E } from "../support/env";
import { signIn } from "../support/google-consent";

/** A spreadsheet `owner` owns in Google and shared with `editor` only (not with SheetAPI's account). */
async function ownedSpreadsheet(owner: string, editor: string, title: string): Promise<string> {
  const res = await fetch(`${E2E.googleUrl}/__admin/spreadsheets`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      title,
      members: { [owner]: "owner", [editor]: "writer" },
      tabs: [
        {
          title: "Items",
          rows: [
            ["id", "name"],
            [1, "first"],
          ],
        },
      ],
    }),
  });
  return String(((await res.json()) as { spreadsheetId: string }).spreadsheetId);
}

async function expectNoSidewaysScroll(page: Page) {
  expect(
    await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth),
  ).toBeLessThanOrEqual(0);
}

for (const width of [390, 1280]) {
  test(`the editor who lost access sees the sheet suspended; the owner takes it back (${width} px)`, async ({
    page,
    browser,
    request,
  }, testInfo) => {
    // Two sign-ins, two consents and two Picker registrations: past 30 s on a loaded machine.
    test.slow();
    const editor = `lapsed-${width}@example.com`;
    const owner = `takes-back-${width}@example.com`;
    const title = `Owner's sheet (${width})`;
    const sheetId = await ownedSpreadsheet(owner, editor, title);
    await page.setViewportSize({ width, height: 900 });
    const key = await registerThroughGrant(page, editor, sheetId, title);
    const list = () => request.get(`/api/v1/${sheetId}/Items`, { headers: { "X-API-Key": key } });
    expect((await list()).status()).toBe(200);

    await shareSpreadsheet(sheetId, { members: { [editor]: "none" } });
    // Within the interval: Google refuses her grant on the first call that reaches it, and the
    // re-check that follows at once suspends the registration.
    await expect
      .poll(
        async () =>
          (
            (await (
              await request.get(`/api/v1/${sheetId}/Items?limit=1`, {
                headers: { "X-API-Key": key, "Cache-Control": "no-cache" },
              })
            ).json()) as { message?: string }
          ).message,
        { timeout: 15_000 },
      )
      .toContain("can no longer open it");

    await page.goto(`/dashboard/sheets/${sheetId}`);
    const notice = page.getByTestId("access-lapsed");
    await expect(notice).toHaveAttribute("data-state", "suspended");
    await expect(notice).toContainText(`Your Google account (${editor}) can no longer open this spreadsheet`);
    await expect(page.getByTestId("sheet-access")).toContainText("Suspended");
    await expectNoSidewaysScroll(page);
    await page.screenshot({ path: testInfo.outputPath(`suspended-${width}.png`), fullPage: true });
    // Proving again while Google still refuses says why, and changes nothing.
    await notice.getByTestId("prove-again").click();
    await expect(notice.getByTestId("prove-again-result")).toContainText(
      `Google did not confirm that ${editor} can open the spreadsheet`,
    );
    await expectNoSidewaysScroll(page);

    // The owner registers his own file: he takes it from her.
    const ownerContext = await browser.newContext({ viewport: { width, height: 900 } });
    const ownerPage = await ownerContext.newPage();
    await registerThroughGrant(ownerPage, owner, sheetId, title);
    await ownerPage.goto(`/dashboard/sheets/${sheetId}`);
    await expect(ownerPage.getByTestId("sheet-access")).toContainText("Read and write");
    await expect(ownerPage.getByTestId("access-lapsed")).toHaveCount(0);
    await expectNoSidewaysScroll(ownerPage);
    await ownerPage.screenshot({ path: testInfo.outputPath(`owner-took-it-${width}.png`), fullPage: true });
    await ownerContext.close();

    // Her dashboard says it was claimed; her key answers 401 as claimed keys do.
    await page.goto(`/dashboard/sheets/${sheetId}`);
    await expect(page.getByTestId("claimed-notice")).toContainText(title);
    await expectNoSidewaysScroll(page);
    await page.screenshot({ path: testInfo.outputPath(`claimed-${width}.png`), fullPage: true });
    expect((await list()).status()).toBe(401);
  });
}

const DAY = 24 * 60 * 60 * 1000;

/**
 * Turns a registration into one made before proof of access existed, as a re-check found it a
 * day ago (ACCESS_PROOF_GRACE_MS: 14 days by default): proof "none", unproven since then. Only
 * the database holds that state, so this needs the server's Postgres (DATABASE_URL).
 */
async function madeBeforeProof(sheetId: string, unprovenSince: Date): Promise<void> {
  const sql = postgres(process.env.DATABASE_URL!, { max: 1 });
  try {
    await sql`update sheets set proof = 'none', access_state = 'unproven', access_unproven_since = ${unprovenSince}, version = version + 1 where id = ${sheetId}`;
  } finally {
    await sql.end();
  }
}

for (const width of [390, 1280]) {
  test(`a registration made before proof is served during its grace: the page and the list say by when to prove access (${width} px)`, async ({
    page,
    request,
  }, testInfo) => {
    test.skip(
      !process.env.DATABASE_URL && !process.env.CI,
      "needs the server's Postgres (DATABASE_URL) to make a registration from before proof",
    );
    test.slow(); // a sign-in, a consent and a Picker registration before the notice
    const email = `before-proof-${width}@example.com`;
    const title = `Sheet from before proof (${width})`;
    const sheetId = await createSpreadsheet(title);
    await page.setViewportSize({ width, height: 900 });
    await signIn(page, email);
    const key = await registerSheet(page, sheetId);
    const since = new Date(Date.now() - DAY);
    await madeBeforeProof(sheetId, since);
    const until = new Date(since.getTime() + 14 * DAY).toISOString().slice(0, 10);
    expect((await request.get(`/api/v1/${sheetId}/Items`, { headers: { "X-API-Key": key } })).status()).toBe(200);

    await page.goto("/dashboard");
    const listed = page.getByTestId("sheet-list").getByTestId("access-unproven");
    await expect(listed).toContainText(`Prove access by ${until}`);
    await expect(listed.getByTestId("prove-again")).toHaveText("Prove access");
    await expect(page.getByTestId("sheet-unproven")).toBeVisible();
    await expectNoSidewaysScroll(page);
    await page.screenshot({ path: testInfo.outputPath(`unproven-list-${width}.png`), fullPage: true });

    await page.goto(`/dashboard/sheets/${sheetId}`);
    const notice = page.getByTestId("access-unproven");
    await expect(notice).toContainText(`Prove access by ${until}`);
    await expect(notice).toContainText("Its keys and webhooks work as before until then");
    await expect(page.getByTestId("sheet-access")).toContainText("Read and write");
    await expectNoSidewaysScroll(page);
    await page.screenshot({ path: testInfo.outputPath(`unproven-${width}.png`), fullPage: true });

    // The account chose the sheet in Google Drive when it registered it: one click proves access.
    await notice.getByTestId("prove-again").click();
    await expect(page.getByTestId("access-unproven")).toHaveCount(0);
    await expect(page.getByTestId("access-lapsed")).toHaveCount(0);
    await expectNoSidewaysScroll(page);
    expect((await request.get(`/api/v1/${sheetId}/Items`, { headers: { "X-API-Key": key } })).status()).toBe(200);
  });
}
