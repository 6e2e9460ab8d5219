// Posts to the pages from another site are refused by the proxy with 403 in the envelope, before
// Next.js sees them (its own check answers a 500 and logs a stack trace): a server action's
// `next-action` header, a plain form's `$ACTION_ID_` field, an Origin that differs only in scheme
// or hides our host in a longer one, and no Origin at all when Sec-Fetch-Site names another site.
import { expect, test, type APIRequestContext, type APIResponse } from "@playwright/test";
import { E2E } from "../support/env";

const port = new URL(E2E.baseUrl).port;
const PAGES = [
  "/",
  "/signin",
  "/dashboard",
  "/dashboard/usage",
  "/dashboard/sheets/1AcmeStoreDemoSpreadsheet0000000000000000001",
  "/docs",
  "/_not-found",
];

async function refused(res: APIResponse, label: string) {
  expect(res.status(), label).toBe(403);
  expect(await res.json(), label).toMatchObject({ success: false, error: "forbidden" });
}

const unescape = (html: string) =>
  html
    .replace(/&quot;/g, '"')
    .replace(/&#x27;/g, "'")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");

/** The sign-in page's form, as a browser without JavaScript posts it (its action's hidden fields). */
async function signInForm(request: APIRequestContext): Promise<Record<string, string>> {
  const html = await (await request.get("/signin")).text();
  const fields = [...html.matchAll(/<input type="hidden" name="(\$ACTION_[^"]+)"(?: value="([^"]*)")?/g)];
  expect(fields.length, "the sign-in form's action fields").toBeGreaterThan(0);
  return Object.fromEntries(fields.map(([, name, value]) => [name!, unescape(value ?? "")]));
}

test("a server action posted from another origin, or from our host over another scheme, is refused", async ({
  request,
}) => {
  const action = { "Next-Action": "0".repeat(42), "Content-Type": "text/plain;charset=UTF-8" };
  // 127.0.0.1 is this server too, but not the host this request was sent to (Next.js checks that).
  for (const origin of [
    "https://evil.example",
    `https://localhost:${port}`,
    `http://localhost:${port}.evil.com`,
    "null",
    `http://localhost:${Number(port) + 1}`,
    `http://127.0.0.1:${port}`,
  ]) {
    await refused(
      await request.post("/dashboard", { headers: { ...action, Origin: origin }, data: "[]", maxRedirects: 0 }),
      origin,
    );
  }
  for (const site of ["cross-site", "same-site"]) {
    await refused(
      await request.post("/dashboard", { headers: { ...action, "Sec-Fetch-Site": site }, data: "[]", maxRedirects: 0 }),
      `no Origin, ${site}`,
    );
  }
});

test("a form posted to any page from another site gets 403, not Next.js's 500", async ({ request }) => {
  // The sign-in form's fields, and the field a form bound to no arguments carries.
  const form = { ...(await signInForm(request)), [`$ACTION_ID_${"0".repeat(42)}`]: "" };
  for (const path of PAGES) {
    for (const origin of ["http://evil.example", `http://localhost:${port}.evil.com`]) {
      await refused(
        await request.post(path, { headers: { Origin: origin }, multipart: form, maxRedirects: 0 }),
        `${path} from ${origin}`,
      );
    }
    await refused(
      await request.post(path, { headers: { "Sec-Fetch-Site": "cross-site" }, multipart: form, maxRedirects: 0 }),
      `${path} without Origin`,
    );
  }
});

test("the same form from our own page, or from no page at all, reaches the action", async ({ request }) => {
  const form = await signInForm(request);
  const loopback = E2E.baseUrl.replace("localhost", "127.0.0.1");
  for (const [base, headers] of [
    [E2E.baseUrl, { Origin: E2E.baseUrl, "Sec-Fetch-Site": "same-origin" }],
    // The same server under its other loopback name, as a browser opened there posts.
    [loopback, { Origin: loopback, "Sec-Fetch-Site": "same-origin" }],
    [E2E.baseUrl, { "Sec-Fetch-Site": "same-origin" }],
    [E2E.baseUrl, {}],
  ] as [string, Record<string, string>][]) {
    const res = await request.post(`${base}/signin`, { headers, multipart: form, maxRedirects: 0 });
    // The sign-in action sends the browser on to Google's consent screen.
    expect(res.status(), JSON.stringify(headers)).toBe(303);
    expect(res.headers().location, JSON.stringify(headers)).toContain(E2E.googleUrl);
  }
});
