// The client JavaScript each page ships, on the wire and decoded, from a fresh Chromium load
// (bench/README.md). Against a server already started with `npm start`:
//   npx tsx bench/client-js.ts --base http://localhost:3660 --sheet 1AcmeStoreDemoSpreadsheet0000000000000000001
import { parseArgs } from "node:util";
import { chromium, type Page } from "@playwright/test";

const { values: args } = parseArgs({
  options: {
    base: { type: "string", default: "http://localhost:3660" },
    sheet: { type: "string", default: "1AcmeStoreDemoSpreadsheet0000000000000000001" },
    account: { type: "string", default: "demo@sheetapi.local" },
  },
});

const kb = (bytes: number) => (bytes / 1024).toFixed(1);

async function signIn(page: Page) {
  await page.goto(`${args.base}/signin`);
  await page.getByTestId("sign-in-google").click();
  await page.getByLabel("Account").fill(args.account!);
  await page.getByRole("button", { name: "Allow" }).click();
  await page.waitForURL(/\/dashboard$/);
}

/** Scripts one load of `path` fetches, with an empty cache: count, bytes on the wire, bytes decoded. */
async function scriptsOf(page: Page, path: string) {
  const scripts: Promise<{ wire: number; decoded: number }>[] = [];
  const onResponse = (response: import("@playwright/test").Response) => {
    if (response.request().resourceType() !== "script") return;
    scripts.push(
      (async () => ({
        wire: (await response.request().sizes()).responseBodySize,
        decoded: (await response.body()).length,
      }))(),
    );
  };
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Network.clearBrowserCache");
  page.on("response", onResponse);
  await page.goto(`${args.base}${path}`);
  await page.waitForLoadState("networkidle");
  page.off("response", onResponse);
  const sizes = await Promise.all(scripts);
  return {
    count: sizes.length,
    wire: sizes.reduce((a, s) => a + s.wire, 0),
    decoded: sizes.reduce((a, s) => a + s.decoded, 0),
  };
}

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu"],
});
try {
  const visitor = await (await browser.newContext()).newPage();
  const owner = await (await browser.newContext()).newPage();
  await signIn(owner);
  const pages: [string, string, Page][] = [
    ["landing", "/", visitor],
    ["sign-in", "/signin", visitor],
    ["guide", "/docs", visitor],
    ["sheet docs", `/docs/${args.sheet}`, visitor],
    ["dashboard", "/dashboard", owner],
    ["sheet", `/dashboard/sheets/${args.sheet}`, owner],
    ["webhooks", `/dashboard/sheets/${args.sheet}/webhooks`, owner],
    ["usage", "/dashboard/usage", owner],
  ];
  console.log("| page | scripts | on the wire (KiB) | decoded (KiB) |\n|---|---|---|---|");
  for (const [name, path, page] of pages) {
    const s = await scriptsOf(page, path);
    console.log(
      `| ${name} (\`${path.replace(args.sheet!, "{sheetId}")}\`) | ${s.count} | ${kb(s.wire)} | ${kb(s.decoded)} |`,
    );
  }
} finally {
  await browser.close();
}
