// Revocation is immediate on every instance: two `next start` share Postgres and Redis; a key
// revoked through one is refused by the other on its very next request.
import { expect, test } from "@playwright/test";
import { registerSheet, revokeKey } from "../support/dashboard";
import { createSpreadsheet } from "../support/emulator-admin";
import { E2E } from "../support/env";
import { signIn } from "../support/google-consent";

test("a key revoked through one instance is refused by the other at once", async ({ page, request }) => {
  test.skip(
    !E2E.secondUrl && !process.env.CI,
    "needs a real Postgres and Redis (DATABASE_URL, UPSTASH_REDIS_REST_URL)",
  );
  expect(E2E.secondUrl, "CI must run two instances on the real Postgres and Redis").toBeTruthy();
  const sheetId = await createSpreadsheet("Revocation test");
  await signIn(page, "revoker@example.com");
  const key = await registerSheet(page, sheetId);
  const onSecond = () => request.get(`${E2E.secondUrl}/api/${sheetId}/schema`, { headers: { "X-API-Key": key } });

  expect((await onSecond()).status()).toBe(200);
  expect((await onSecond()).status()).toBe(200);

  await page.goto(`/dashboard/sheets/${sheetId}`);
  await revokeKey(page, "Default key");
  const refused = await onSecond();
  expect(refused.status()).toBe(401);
  expect(await refused.json()).toMatchObject({
    success: false,
    error: "unauthorized",
    message: "This API key has been revoked.",
  });
});
