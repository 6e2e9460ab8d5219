// The owner's dashboard "Try it": the API's own answers through the same tab cache, not counted
// against the plan, on its own allowance.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser } from "@/db/queries/users";
import { DEMO_SPREADSHEET_ID } from "@/emulators/google/seed";
import { memoryStore, setLimitStore } from "@/lib/store/store";
import { rowsClient } from "@/testing/rows-client";
import { startTestService, type TestService } from "@/testing/service";
import { registeredKey } from "@/testing/google";

let svc: TestService;
let userId: string;
let api: ReturnType<typeof rowsClient>;

beforeAll(async () => {
  svc = await startTestService({ env: { CHANGE_CHECK_INTERVAL_MS: "600000" } });
  setLimitStore(memoryStore());
  userId = (await createUser({ email: "owner-reads@example.com", plan: "free_trial" })).id;
  api = rowsClient(DEMO_SPREADSHEET_ID, await registeredKey({ id: userId, email: null }, DEMO_SPREADSHEET_ID));
});
afterAll(async () => {
  setLimitStore(undefined);
  await svc.stop();
});

async function read(request: { tab: string; rowId?: string; query?: string }) {
  const { ownerRead } = await import("./owner-reads");
  const { getSheet } = await import("@/db/queries/sheets");
  const { toSheetRecord } = await import("@/lib/sheets/sheet-record");
  return ownerRead(userId, toSheetRecord((await getSheet({ id: DEMO_SPREADSHEET_ID }))!), request);
}

describe("owner reads", () => {
  it("answer what a key gets, from the same cache, and count nothing against the plan", async () => {
    const owner = await read({ tab: "Products", query: "limit=2&sort=name" });
    expect(owner.status).toBe(200);
    const keyed = await api.list("Products", "limit=2&sort=name");
    expect(keyed.body).toEqual(owner.body);
    // The key's read found the owner's copy in the cache.
    expect(keyed.headers.get("x-cache")).toBe("HIT");
    expect((await read({ tab: "Products", rowId: "2" })).body).toMatchObject({
      success: true,
      data: { id: "2", name: "Standing desk" },
    });

    for (let i = 0; i < 10; i++) expect((await read({ tab: "Products" })).status).toBe(200);
    // One request of the Free Trial's five a minute was the key's; the owner's twelve count nowhere.
    const { accountLimits } = await import("@/lib/limits/accounts");
    const { peekWindows } = await import("@/lib/limits/limiter");
    const burst = (await peekWindows(await accountLimits(userId))).windows.find((w) => w.name === "burst")!;
    expect(burst.used).toBe(1);
  });

  it("answers the API's errors in its envelope", async () => {
    expect(await read({ tab: "Nope" })).toMatchObject({ status: 404, body: { success: false, error: "not_found" } });
    expect(await read({ tab: "Products", query: "limit=0" })).toMatchObject({
      status: 400,
      body: { success: false, error: "validation_error" },
    });
  });

  it("has its own allowance, and says when it runs out", async () => {
    const { ACCOUNT_ACTION_LIMITS } = await import("@/lib/abuse/account-actions");
    let last;
    for (let i = 0; i <= ACCOUNT_ACTION_LIMITS.tryIt; i++) last = await read({ tab: "Products" });
    expect(last).toMatchObject({ status: 429, body: { error: "rate_limit_exceeded" } });
    expect(String(last!.body.message)).toMatch(/at most 120 an hour/);
  });
});
