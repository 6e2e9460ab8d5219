// A form key from the sheet's page, its ready HTML pasted into a static page of another site, sent
// by a browser with JavaScript off: the row is in the sheet and the browser is on the thank-you
// page; the same form with the honeypot filled lands there too and writes nothing.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test, type Page } from "@playwright/test";
import { registerSheet } from "../support/dashboard";
import { copySpreadsheet } from "../support/emulator-admin";
import { E2E } from "../support/env";
import { signIn } from "../support/google-consent";

type Cell = { value: unknown } | null;

/** The Products tab as the emulator holds it: each non-empty row's values. */
async function productRows(sheetId: string): Promise<unknown[][]> {
  const res = await fetch(`${E2E.googleUrl}/__admin/spreadsheets/${sheetId}`);
  const sheet = (await res.json()) as { tabs: { title: string; rows: (Cell[] | null)[] }[] };
  const tab = sheet.tabs.find((t) => t.title === "Products")!;
  return tab.rows.filter((r) => r?.some((c) => c)).map((r) => r!.map((c) => c?.value ?? null));
}

/** The form's counts on the sheet's page, once the service has written them (a batch every few seconds). */
async function expectCounts(page: Page, sheetId: string, text: string) {
  await expect(async () => {
    await page.goto(`/dashboard/sheets/${sheetId}`);
    await expect(page.getByTestId("form-counts")).toHaveText(text, { timeout: 2000 });
  }).toPass({ timeout: 30_000 });
}

test("a pasted form sends a row with JavaScript off, and its honeypot writes nothing", async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(120_000);
  // The site that holds the form: its page is whatever the owner pasted from the dashboard.
  let pasted = "";
  const site = createServer((_req, res) =>
    res
      .writeHead(200, { "content-type": "text/html; charset=utf-8" })
      .end(`<!doctype html><meta charset="utf-8"><title>Join the club</title><h1>Join</h1>${pasted}`),
  );
  await new Promise<void>((resolve) => site.listen(0, "127.0.0.1", resolve));
  // 127.0.0.1 is another origin than the app's http://localhost:<port>.
  const origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;

  try {
    const sheetId = await copySpreadsheet(E2E.demoSheetId);
    await signIn(page, "forms-no-js@example.com");
    const apiKey = await registerSheet(page, sheetId);

    await page.goto(`/dashboard/sheets/${sheetId}`);
    const forms = page.getByTestId("forms");
    await forms.getByLabel(/^Name/).fill("Product ideas");
    await forms.getByLabel(/^Tab/).selectOption("Products");
    await forms.getByLabel(/^Allowed origins/).fill(origin);
    await forms.getByLabel(/^Accepted fields/).fill("name, price, in_stock, notes");
    await forms.getByLabel(/^Thank-you message/).fill("Thanks, we read every idea.");
    await forms.getByRole("button", { name: "Make a form key" }).click();
    pasted = await forms.getByRole("textbox", { name: "HTML form" }).inputValue();
    expect(pasted).toMatch(new RegExp(`^<form action="${E2E.baseUrl}/f/shf_[0-9A-Za-z]+" method="post">`));
    await expect(forms.getByTestId("form-key")).toContainText(`from ${origin}`);

    const before = await productRows(sheetId);
    const visitor = await browser.newContext({ javaScriptEnabled: false });
    try {
      const form = await visitor.newPage();
      await form.goto(`${origin}/`);
      await form.getByLabel("name", { exact: true }).fill("Cable clips");
      await form.getByLabel("price", { exact: true }).fill("7.5");
      await form.getByLabel("in_stock", { exact: true }).check();
      await form.getByLabel("notes", { exact: true }).fill("Pack of 20");
      await form.getByRole("button", { name: "Send" }).click();

      // The hosted thank-you page: the owner's message and a way back to the page that sent it.
      await form.waitForURL((url) => url.href.startsWith(`${E2E.baseUrl}/f/shf_`));
      await expect(form.getByRole("heading", { name: "Thank you" })).toBeVisible();
      await expect(form.getByText("Thanks, we read every idea.")).toBeVisible();
      await expect(form.getByRole("link", { name: "Back to the site" })).toHaveAttribute("href", `${origin}/`);

      const after = await productRows(sheetId);
      expect(after).toHaveLength(before.length + 1);
      const header = after[0]!;
      const row = Object.fromEntries(header.map((name, i) => [String(name), after.at(-1)![i] ?? null]));
      expect(row).toMatchObject({ name: "Cable clips", price: 7.5, in_stock: true, notes: "Pack of 20" });
      // The API with the sheet's key reads the same row.
      const listed = await request.get(`/api/v1/${sheetId}/Products?fresh=true&limit=100`, {
        headers: { "X-API-Key": apiKey, "Cache-Control": "no-cache" },
      });
      expect(listed.status()).toBe(200);
      const names = ((await listed.json()) as { data: { name: string }[] }).data.map((r) => r.name);
      expect(names.filter((n) => n === "Cable clips")).toHaveLength(1);

      // A bot fills every field, the hidden one too: it is answered as a person is, and nothing is written.
      await form.goto(`${origin}/`);
      await form.getByLabel("name", { exact: true }).fill("Cheap watches");
      await form.getByLabel("notes", { exact: true }).fill("Visit my site");
      await form.locator('input[name="_gotcha"]').fill("http://spam.example");
      await form.getByRole("button", { name: "Send" }).click();
      await form.waitForURL((url) => url.href.startsWith(`${E2E.baseUrl}/f/shf_`));
      await expect(form.getByRole("heading", { name: "Thank you" })).toBeVisible();
      expect(await productRows(sheetId)).toEqual(after);
    } finally {
      await visitor.close();
    }

    await expectCounts(page, sheetId, "1 accepted · 1 refused");
  } finally {
    await new Promise((resolve) => site.close(resolve));
  }
});
