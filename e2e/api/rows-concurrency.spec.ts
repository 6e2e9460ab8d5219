// Two `next start` instances on one Postgres and one Redis, hit at once: ids are never handed
// out twice, updates of different fields all survive, deletes remove exactly their rows.
import { expect, test, type APIRequestContext } from "@playwright/test";
import { choosePlan, registerSheet } from "../support/dashboard";
import { createSpreadsheet } from "../support/emulator-admin";
import { E2E } from "../support/env";
import { signIn } from "../support/google-consent";

const WIDE = Array.from({ length: 50 }, (_, i) => `c${i + 1}`);

test("200 creates, 50 updates and 50 deletes at once across two instances", async ({ page, request }) => {
  test.skip(
    !E2E.secondUrl && !process.env.CI,
    "needs a real Postgres and Redis (DATABASE_URL, UPSTASH_REDIS_REST_URL)",
  );
  expect(E2E.secondUrl, "CI must run two instances on the real Postgres and Redis").toBeTruthy();
  test.setTimeout(120_000);
  const sheetId = await createSpreadsheet(
    "Concurrency",
    [["id", "name"]],
    [{ title: "Wide", rows: [["id", ...WIDE], [1]] }],
  );
  await signIn(page, "concurrency@example.com");
  const key = await registerSheet(page, sheetId);
  // 300 requests in a few seconds: more than Free Trial allows.
  await choosePlan(page, "business", "Business");
  const headers = { "X-API-Key": key };
  const base = (i: number) => (i % 2 === 0 ? E2E.baseUrl : E2E.secondUrl!);
  const url = (i: number, path: string) => `${base(i)}/api/v1/${sheetId}/${path}`;
  const all = (r: APIRequestContext, n: number, call: (i: number) => ReturnType<APIRequestContext["get"]>) =>
    Promise.all(Array.from({ length: n }, (_, i) => call(i)));

  const created = await all(request, 200, (i) =>
    request.post(url(i, "Items"), { headers, data: { name: `row ${i}` } }),
  );
  expect(created.map((r) => r.status())).toEqual(Array(200).fill(201));
  const ids = await Promise.all(
    created.map(async (r) => ((await r.json()) as { data: { rows: { id: string }[] } }).data.rows[0]!.id),
  );
  expect(new Set(ids).size).toBe(200);
  const listed = await (await request.get(url(0, "Items?limit=1000"), { headers })).json();
  expect(listed.meta.total).toBe(200);
  expect(new Set(listed.data.map((r: { id: string }) => r.id))).toEqual(new Set(ids));

  const updated = await all(request, 50, (i) =>
    request.put(url(i, "Wide/1"), { headers, data: { [WIDE[i]!]: `v${i + 1}` } }),
  );
  expect(updated.map((r) => r.status())).toEqual(Array(50).fill(200));
  const wide = (await (await request.get(url(1, "Wide/1"), { headers })).json()).data;
  for (const [i, column] of WIDE.entries()) expect(wide[column]).toBe(`v${i + 1}`);

  const doomed = ids.slice(0, 50);
  const deleted = await all(request, 50, (i) => request.delete(url(i, `Items/${doomed[i]}`), { headers }));
  expect(deleted.map((r) => r.status())).toEqual(Array(50).fill(200));
  const left = await (await request.get(url(1, "Items?limit=1000"), { headers })).json();
  expect(left.meta.total).toBe(150);
  expect(new Set(left.data.map((r: { id: string }) => r.id))).toEqual(new Set(ids.slice(50)));
});

test("100 concurrent requests across two instances with 5 remaining: exactly 5 get through, requests_used rises by 5", async ({
  page,
  request,
}) => {
  test.skip(
    !E2E.secondUrl && !process.env.CI,
    "needs a real Postgres and Redis (DATABASE_URL, UPSTASH_REDIS_REST_URL)",
  );
  const sheetId = await createSpreadsheet("Exactness");
  await signIn(page, "exact@example.com"); // Free Trial: 5 a minute
  const key = await registerSheet(page, sheetId);
  const used = async () =>
    (
      (await (await request.get(`${E2E.baseUrl}/billing/usage`, { headers: { "X-API-Key": key } })).json()) as {
        data: { current_period: { requests_used: number } };
      }
    ).data.current_period.requests_used;
  const before = await used();
  const answers = await Promise.all(
    Array.from({ length: 100 }, (_, i) =>
      request.get(`${i % 2 ? E2E.secondUrl : E2E.baseUrl}/api/v1/${sheetId}/Items`, { headers: { "X-API-Key": key } }),
    ),
  );
  const statuses = answers.map((r) => r.status());
  expect(statuses.filter((s) => s === 200)).toHaveLength(5);
  expect(statuses.filter((s) => s === 429)).toHaveLength(95);
  const refused = answers.find((r) => r.status() === 429)!;
  expect(await refused.json()).toMatchObject({
    success: false,
    error: "rate_limit_exceeded",
    limit: { allowed: 5, current: 5 },
  });
  expect(refused.headers()["retry-after"]).toBeTruthy();
  // The usage report is not counted and answers past the limit: it rose by exactly the 5.
  expect(await used()).toBe(before + 5);
});
