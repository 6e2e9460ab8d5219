// A browser (publishable) key from the owner's dashboard to a web page on another origin: the page
// of a listed origin reads the rows it may (only the chosen columns); a page of another origin is
// refused (the server answers 403 without naming that origin, so the browser's fetch fails).
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test, type Page } from "@playwright/test";
import { copyNewKey, keyRow, registerSheet } from "../support/dashboard";
import { createSpreadsheet } from "../support/emulator-admin";
import { E2E } from "../support/env";
import { signIn } from "../support/google-consent";

// The page a site would serve: it calls the API with fetch and the key, and shows what it got.
const PAGE = `<!doctype html><meta charset="utf-8"><title>Shop</title><pre id="out">pending</pre><script>
const p = new URLSearchParams(location.search);
fetch(p.get("api"), { headers: { "X-API-Key": p.get("key") } })
  .then(async (r) => { document.getElementById("out").textContent = JSON.stringify({ status: r.status, body: await r.json() }); })
  .catch((e) => { document.getElementById("out").textContent = JSON.stringify({ failed: String(e) }); });
</script>`;

/** A static site on its own port of 127.0.0.1: another origin than the app's http://localhost:<port>. */
async function staticSite(): Promise<{ origin: string; server: Server }> {
  const server = createServer((_req, res) =>
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(PAGE),
  );
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

const sites: Server[] = [];
test.afterAll(async () => {
  await Promise.all(sites.map((s) => new Promise((resolve) => s.close(resolve))));
});

/** Opens the site's page at `origin`, which fetches `api` with the key; what the page saw. */
async function visit(page: Page, origin: string, api: string, key: string) {
  await page.goto(`${origin}/?${new URLSearchParams({ api, key })}`);
  await expect(page.locator("#out")).not.toHaveText("pending");
  return JSON.parse((await page.locator("#out").textContent())!) as {
    status?: number;
    body?: { data: unknown };
    failed?: string;
  };
}

test("a browser key works from the listed origin's page, shows only the chosen columns, and is refused elsewhere", async ({
  page,
  request,
}) => {
  const allowed = await staticSite();
  const other = await staticSite();
  sites.push(allowed.server, other.server);
  const sheetId = await createSpreadsheet(
    "Browser key test",
    [
      ["id", "name", "cost"],
      [1, "Lamp", 11],
      [2, "Chair", 120],
    ],
    [
      {
        title: "Payroll",
        rows: [
          ["id", "salary"],
          [1, 90000],
        ],
      },
    ],
  );

  // The owner creates the key on a phone-sized screen.
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page, "browser-keys@example.com");
  await registerSheet(page, sheetId);
  await page.goto(`/dashboard/sheets/${sheetId}`);
  await page.getByTestId("kind-browser").check();
  await page.getByTestId("new-key-origins").fill(`${allowed.origin}/`);
  await page.getByTestId("new-key-tab-Items").check();
  await page.getByTestId("new-key-column-name").check();
  await page.getByTestId("key-name").fill("Shop website");
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await page.getByTestId("create-key").click();
  const dialog = page.getByRole("dialog", { name: "Your new API key" });
  const key = await copyNewKey(dialog);
  expect(key).toMatch(/^shp_[0-9A-Za-z]{38}$/);
  await expect(dialog.getByTestId("new-key-browser")).toContainText("safe to put in a web page");
  await dialog.getByTestId("close-key-dialog").click();
  const row = keyRow(page, "Shop website");
  await expect(row.getByTestId("key-kind")).toHaveText("Browser");
  await expect(row.getByTestId("key-origins")).toHaveText(allowed.origin);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

  const api = `${E2E.baseUrl}/api/v1/${sheetId}/Items`;
  const ok = await visit(page, allowed.origin, api, key);
  expect(ok).toEqual({
    status: 200,
    body: expect.objectContaining({
      success: true,
      data: [
        { id: "1", name: "Lamp" },
        { id: "2", name: "Chair" },
      ],
    }),
  });

  // Another origin's page: the browser's fetch fails, because the server's 403 names no origin.
  const refused = await visit(page, other.origin, api, key);
  expect(refused.failed).toMatch(/TypeError/);
  const asSent = await request.get(api, { headers: { "X-API-Key": key, Origin: other.origin } });
  expect(asSent.status()).toBe(403);
  expect(asSent.headers()["access-control-allow-origin"]).toBeUndefined();
  expect((await asSent.json()).message).toContain(`"${other.origin}"`);

  // The tab the owner did not choose does not exist for the key, even from the listed origin.
  const hidden = await visit(page, allowed.origin, `${E2E.baseUrl}/api/v1/${sheetId}/Payroll`, key);
  expect(hidden.status).toBe(404);

  // The owner lists the other origin too: its page reads from the next request on.
  await page.goto(`/dashboard/sheets/${sheetId}`);
  await row.getByTestId("edit-browser").click();
  const origins = row.locator('textarea[data-testid$="-origins"]');
  await origins.fill(`${allowed.origin}\n${other.origin}`);
  await row.getByTestId("save-browser").click();
  await expect(row.getByRole("status")).toHaveText("Browser key settings saved.");
  await expect(row.getByTestId("key-origins")).toHaveText(`${allowed.origin}, ${other.origin}`);
  expect((await visit(page, other.origin, api, key)).status).toBe(200);

  // The guide and the sheet's docs page explain browser keys, with a fetch of this sheet's own tab.
  await page.goto("/docs#browser-keys");
  await expect(page.locator("#browser-keys")).toContainText("only from the origins the owner lists");
  await page.goto(`/docs/${sheetId}`);
  await expect(page.getByTestId("docs-browser-keys")).toContainText("safe in a web page");
  await expect(page.getByTestId("docs-browser-fetch")).toContainText(`/api/v1/${sheetId}/Items?select=name`);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
});
