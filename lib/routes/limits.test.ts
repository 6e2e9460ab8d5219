// Counting through the routes (DECISIONS 15): 2xx and 4xx count, 429 and 5xx do not; headers on
// every answer of a valid key, errors included.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser } from "@/db/queries/users";
import { DEMO_SPREADSHEET_ID } from "@/emulators/google/seed";
import { memoryStore, setLimitStore } from "@/lib/store/store";
import { rowsClient } from "@/testing/rows-client";
import { startTestService, type TestService } from "@/testing/service";
import { registeredKey } from "@/testing/google";

let svc: TestService;
let api: ReturnType<typeof rowsClient>;
let readOnly: ReturnType<typeof rowsClient>;

beforeAll(async () => {
  svc = await startTestService({ env: { GOOGLE_RETRY_BUDGET_MS: "200" } });
  setLimitStore(memoryStore());
  const { createKeyForSheet } = await import("@/lib/keys/manage");
  const user = await createUser({ email: "trial@example.com" }); // Free Trial: 5 a minute, 10 an hour
  api = rowsClient(DEMO_SPREADSHEET_ID, await registeredKey(user, DEMO_SPREADSHEET_ID));
  readOnly = rowsClient(
    DEMO_SPREADSHEET_ID,
    (await createKeyForSheet({ userId: user.id, sheetId: DEMO_SPREADSHEET_ID, name: "ro", permissions: ["read"] }))
      .value,
  );
});
afterAll(async () => {
  setLimitStore(undefined);
  await svc.stop();
});

const remaining = (res: { headers: Headers }) => res.headers.get("x-ratelimit-remaining");
const settle = () => new Promise((r) => setTimeout(r, 20));

describe("counting", () => {
  it("counts 2xx and 4xx, gives 5xx back, refuses past the limit without counting", async () => {
    const ok = await api.list("Products");
    expect([ok.status, remaining(ok), ok.headers.get("x-ratelimit-limit")]).toEqual([200, "4", "5"]);
    expect(ok.headers.get("ratelimit")).toMatch(/^limit=5, remaining=4, reset=\d+$/);
    expect(ok.headers.get("ratelimit-policy")).toMatch(/^5;w=60, 10;w=3600, 100;w=86400, 3000;w=\d+$/);

    const missing = await api.get("Products", "999");
    expect([missing.status, remaining(missing)]).toEqual([404, "3"]);
    const forbidden = await readOnly.create("Products", { name: "x" });
    expect([forbidden.status, remaining(forbidden)]).toEqual([403, "2"]);

    svc.google.faults.add({ route: "values.get", status: 500, count: -1 });
    const { invalidateSheetData } = await import("@/lib/sheets/read/tab-cache");
    await invalidateSheetData(DEMO_SPREADSHEET_ID);
    const failed = await api.list("Products");
    expect(failed.status).toBe(502);
    // Not counted, and its headers already say so.
    expect([remaining(failed), failed.headers.get("ratelimit")?.split(", ")[1]]).toEqual(["2", "remaining=2"]);
    svc.google.faults.clear();
    await settle();

    const again = await api.list("Products");
    expect([again.status, remaining(again)]).toEqual([200, "1"]);
    expect((await api.list("Products")).status).toBe(200);

    const limited = await api.list("Products");
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({
      success: false,
      error: "rate_limit_exceeded",
      limit: { allowed: 5, current: 5 },
    });
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(limited.body.retry_after).toBe(Number(limited.headers.get("retry-after")));
    expect(remaining(limited)).toBe("0");
  });

  it("sends no limit headers and counts nothing for an invalid key", async () => {
    const bad = rowsClient(DEMO_SPREADSHEET_ID, "shk_0000000000000000000000000000000000000A");
    const res = await bad.list("Products");
    expect(res.status).toBe(401);
    expect(remaining(res)).toBeNull();
  });
});
