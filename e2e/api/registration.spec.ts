// Registration and the authorization flow, as API clients see them without a session.
import { expect, test } from "@playwright/test";
import { signIn } from "../support/google-consent";

test("POST /register needs a dashboard session", async ({ request }) => {
  const res = await request.post("/register", { data: { sheet_url: "1AcmeStoreDemoSpreadsheet0000000000000000001" } });
  expect(res.status()).toBe(401);
  expect(await res.json()).toMatchObject({ success: false, error: "unauthorized" });
});

test("POST /register with a session but no proof from Google is refused, naming the way to prove access", async ({
  page,
}) => {
  await signIn(page, "api-register@example.com");
  const res = await page.request.post("/register", {
    data: { sheet_url: "1AcmeStoreDemoSpreadsheet0000000000000000001" },
  });
  expect(res.status()).toBe(403);
  const body = await res.json();
  expect(body).toMatchObject({ success: false, error: "forbidden", reason: "no_google_grant" });
  expect(body.message).toContain(
    "use “Choose a sheet from Google Drive” on the dashboard to let SheetAPI see the spreadsheets you choose (only those), then choose this one in Google Drive",
  );
});

test("POST /register says what is wrong with a body that is not the JSON object it takes", async ({ page }) => {
  await signIn(page, "api-register-bodies@example.com");
  for (const [data, message] of [
    ["{bad", /not valid JSON/],
    [JSON.stringify("1AcmeStoreDemoSpreadsheet0000000000000000001"), /must be a JSON object: \{ "sheet_url"/],
    ["[1]", /must be a JSON object/],
    ["{}", /sheet_url is required/],
  ] as const) {
    const res = await page.request.post("/register", {
      data: Buffer.from(data),
      headers: { "Content-Type": "application/json" },
    });
    expect([data, res.status()]).toEqual([data, 400]);
    const body = await res.json();
    expect(body).toMatchObject({ success: false, error: "validation_error" });
    expect(body.message).toMatch(message);
  }
});

test("/auth/{provider}: other providers are 404, a missing or bad sheet_url is 400", async ({ request }) => {
  const other = await request.get("/auth/github?sheet_url=1AcmeStoreDemoSpreadsheet0000000000000000001", {
    maxRedirects: 0,
  });
  expect(other.status()).toBe(404);
  expect(await other.json()).toMatchObject({ success: false, error: "not_found" });
  for (const query of ["", "?sheet_url=", "?sheet_url=http%3A%2F%2F127.0.0.1%2Fx"]) {
    const res = await request.get(`/auth/google${query}`, { maxRedirects: 0 });
    expect(res.status()).toBe(400);
    expect(await res.json()).toMatchObject({ success: false, error: "validation_error" });
  }
});

test("/auth/google sends a visitor without a session to sign in first, then back", async ({ request }) => {
  const res = await request.get("/auth/google?sheet_url=1PrivateOwnerSpreadsheet00000000000000000003", {
    maxRedirects: 0,
  });
  expect(res.status()).toBe(302);
  expect(res.headers().location).toBe(
    `/signin?callbackUrl=${encodeURIComponent("/auth/google?sheet_url=1PrivateOwnerSpreadsheet00000000000000000003")}`,
  );
});

test("the schema routes refuse missing and garbage keys in the envelope", async ({ request }) => {
  for (const [method, path] of [
    ["GET", "schema"],
    ["POST", "refresh-schema"],
  ] as const) {
    const none = await request.fetch(`/api/1AcmeStoreDemoSpreadsheet0000000000000000001/${path}`, { method });
    expect(none.status()).toBe(401);
    const garbage = await request.fetch(`/api/1AcmeStoreDemoSpreadsheet0000000000000000001/${path}`, {
      method,
      headers: { "X-API-Key": "shk_nope" },
    });
    expect(garbage.status()).toBe(401);
    expect(await garbage.json()).toMatchObject({ success: false, error: "unauthorized" });
  }
});
