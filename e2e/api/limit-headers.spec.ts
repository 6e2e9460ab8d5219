// SPEC Limits 6 on the routes that need no key: a request carrying a live key gets its account's
// rate-limit headers there too, without being counted; without one, the address's allowance for
// requests without a valid key, which they do not spend.
import { expect, test, type APIResponse } from "@playwright/test";
import { choosePlan, registerSheet } from "../support/dashboard";
import { copySpreadsheet } from "../support/emulator-admin";
import { E2E } from "../support/env";
import { signIn } from "../support/google-consent";

const limitOf = (res: APIResponse) => [res.headers()["x-ratelimit-limit"], res.headers()["x-ratelimit-remaining"]];

test("routes that need no key carry a live key's rate-limit headers, uncounted", async ({ page, request }) => {
  test.setTimeout(90_000);
  const sheetId = await copySpreadsheet(E2E.demoSheetId);
  await signIn(page, "limit-headers@example.com");
  const key = await registerSheet(page, sheetId); // Free Trial: 5 a minute
  const rows = `/api/v1/${sheetId}/Products`;
  expect(limitOf(await request.get(rows, { headers: { "X-API-Key": key } }))).toEqual(["5", "4"]);

  for (const [method, path, status] of [
    ["GET", "/api", 200],
    ["DELETE", "/api", 405],
    ["OPTIONS", "/api", 204],
    ["GET", "/health", 200],
    ["POST", "/health", 200],
    ["GET", "/no/such/route", 404],
    ["POST", "/api/v2/whatever", 404],
    ["GET", `/api/v1/${sheetId}`, 404],
    // The static route reads of rows are rewritten to (lib/http/read-paths.ts), asked for directly.
    ["GET", "/api/v1/_read", 404],
    ["POST", "/api/v1/_read", 404],
    ["POST", "/register", 401],
    ["GET", "/register", 405],
    ["GET", "/auth/github?sheet_url=x", 404],
    ["GET", `/docs/${sheetId}/openapi.json`, 200],
  ] as const) {
    const send = (headers: Record<string, string>) => request.fetch(path, { method, headers, maxRedirects: 0 });
    for (const headers of [{ "X-API-Key": key }, { Authorization: `Bearer ${key}` }] as Record<string, string>[]) {
      const res = await send(headers);
      expect([method, path, res.status(), ...limitOf(res)]).toEqual([method, path, status, "5", "4"]);
      expect(Number(res.headers()["x-ratelimit-reset"])).toBeGreaterThan(Date.now() / 1000);
    }
    // Without a live key: the address's allowance for requests without a valid key, spent by none of these.
    for (const headers of [{}, { "X-API-Key": "shk_0000000000000000000000000000000000000A" }] as Record<
      string,
      string
    >[]) {
      const res = await send(headers);
      const [limit, remaining] = limitOf(res);
      expect([method, path, res.status(), limit]).toEqual([method, path, status, "300"]);
      expect(Number(remaining)).toBeGreaterThan(0);
      expect(res.headers()["ratelimit-policy"]).toBe("300;w=60");
    }
  }
  // Fifty-six answers later, the next counted request is the second of the minute.
  expect(limitOf(await request.get(rows, { headers: { "X-API-Key": key } }))).toEqual(["5", "3"]);
});

test("a path with a trailing slash or doubled slashes is answered as the path without them, headers and all", async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  const sheetId = await copySpreadsheet(E2E.demoSheetId);
  await signIn(page, "trailing-slash@example.com");
  const key = await registerSheet(page, sheetId);
  await choosePlan(page, "business", "Business"); // more than Free Trial's 5 a minute
  const headers = { "X-API-Key": key };
  const plain = await (await request.get(`/api/v1/${sheetId}/Products`, { headers })).json();
  for (const path of [
    `/api/v1/${sheetId}/Products/`,
    `/api/v1//${sheetId}//Products`,
    `/api/v1/${sheetId}/Products/1/`,
    `/api/${sheetId}/schema/`,
  ]) {
    const res = await request.get(path, { headers, maxRedirects: 0 });
    expect([path, res.status()]).toEqual([path, 200]);
    expect(res.headers()["x-ratelimit-limit"]).toMatch(/^\d+$/);
    expect(res.headers()["access-control-allow-origin"]).toBe("*");
    if (path.endsWith("Products/")) expect(await res.json()).toEqual(plain);
  }
  // A read's HEAD (routed, as its GET, to the rows API's static read route): the GET's status and
  // headers without the body.
  const row = `/api/v1/${sheetId}/Products/1`;
  const [get, head] = [await request.get(row, { headers }), await request.head(row, { headers })];
  expect([head.status(), head.headers()["etag"], head.headers()["content-type"], (await head.body()).length]).toEqual([
    200,
    get.headers()["etag"],
    get.headers()["content-type"],
    0,
  ]);
  expect(head.headers()["x-ratelimit-limit"]).toMatch(/^\d+$/);
  // The handler sees the canonical path: a retry sent with the slash replays the first answer.
  const write = { ...headers, "Content-Type": "application/json", "Idempotency-Key": "trailing-slash-retry" };
  const first = await request.post(`/api/v1/${sheetId}/Products`, { headers: write, data: { name: "Slash lamp" } });
  const retry = await request.post(`/api/v1/${sheetId}/Products/`, {
    headers: write,
    data: { name: "Slash lamp" },
    maxRedirects: 0,
  });
  expect([first.status(), retry.status(), retry.headers()["idempotent-replayed"]]).toEqual([201, 201, "true"]);
  expect(await retry.json()).toEqual(await first.json());
});

test("a key route's 401, and the 400 of two different keys, carry the rate-limit headers of the address's allowance for bad keys", async ({
  request,
}) => {
  const other = "shk_0000000000000000000000000000000000000A";
  for (const [status, headers] of [
    [401, {}],
    [401, { "X-API-Key": other }],
    [400, { "X-API-Key": other, Authorization: "Bearer shk_0000000000000000000000000000000000000B" }],
  ] as [number, Record<string, string>][]) {
    const res = await request.get(`/api/v1/${E2E.demoSheetId}/Products`, { headers });
    expect(res.status()).toBe(status);
    // RFC 9110: a 401 names the scheme to authenticate with.
    expect(res.headers()["www-authenticate"]).toBe(status === 401 ? 'Bearer realm="SheetAPI"' : undefined);
    const [limit, remaining] = limitOf(res).map(Number);
    expect(limit).toBeGreaterThan(0);
    expect(remaining).toBeLessThan(limit!);
    expect(Number(res.headers()["x-ratelimit-reset"])).toBeGreaterThan(Date.now() / 1000);
  }
});
