// Abuse: a flood of bad keys from one address is cut off there (and never counted against an
// account), other addresses are unaffected; sheet registrations and key creations are limited
// per account.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser } from "@/db/queries/users";
import { DEMO_SPREADSHEET_ID } from "@/emulators/google/seed";
import { memoryStore, setLimitStore } from "@/lib/store/store";
import { callRoute } from "@/testing/routes";
import { startTestService, type TestService } from "@/testing/service";
import { ACCOUNT_ACTION_LIMITS, limitAccountAction } from "./account-actions";
import { registeredKey } from "@/testing/google";

let svc: TestService;
let key: string;

beforeAll(async () => {
  svc = await startTestService({ env: { INVALID_KEY_LIMIT_PER_MINUTE: "10", TRUSTED_PROXY_HOPS: "1" } });
  setLimitStore(memoryStore());
  const user = await createUser({ email: "abuse@example.com", plan: "business" });
  key = await registeredKey(user, DEMO_SPREADSHEET_ID);
});
afterAll(async () => {
  setLimitStore(undefined);
  await svc.stop();
});

const list = async (apiKey: string, forwardedFor: string) => {
  const { GET } = await import("@/app/api/v1/[sheetId]/[tabName]/route");
  return callRoute(GET, {
    path: `/api/v1/${DEMO_SPREADSHEET_ID}/Products`,
    params: { sheetId: DEMO_SPREADSHEET_ID, tabName: "Products" },
    headers: { "X-API-Key": apiKey, "X-Forwarded-For": forwardedFor },
  });
};

describe("invalid-key floods", () => {
  it("answers 429 to an address after its allowance of bad keys, and only to that address", async () => {
    const bad = "shk_0000000000000000000000000000000000000A";
    // The client's own X-Forwarded-For entry cannot change its address: the proxy's entry decides.
    // Each 401 carries the address's allowance as its rate-limit headers, counting down.
    for (let i = 0; i < 10; i++) {
      const res = await list(bad, `1.1.1.${i}, 203.0.113.7`);
      expect(res.status).toBe(401);
      expect(res.headers.get("x-ratelimit-limit")).toBe("10");
      expect(res.headers.get("x-ratelimit-remaining")).toBe(String(9 - i));
      expect(Number(res.headers.get("x-ratelimit-reset")) * 1000).toBeGreaterThan(Date.now());
      expect(Number(res.headers.get("x-ratelimit-reset")) * 1000).toBeLessThanOrEqual(Date.now() + 61_000);
    }
    const cut = await list(bad, "9.9.9.9, 203.0.113.7");
    expect(cut.status).toBe(429);
    expect(cut.body).toMatchObject({ success: false, error: "rate_limit_exceeded", limit: { allowed: 10 } });
    expect(Number(cut.headers.get("retry-after"))).toBeGreaterThan(0);
    // The body and the headers name the same second.
    expect((cut.body.limit as { reset_at: number }).reset_at).toBe(Number(cut.headers.get("x-ratelimit-reset")));
    // The address's window, not an account's (none was touched).
    expect(cut.headers.get("x-ratelimit-limit")).toBe("10");
    expect(cut.headers.get("x-ratelimit-remaining")).toBe("0");
    // A missing key is a bad key too.
    const missing = await list("", "9.9.9.9, 198.51.100.2");
    expect(missing.status).toBe(401);
    expect(missing.headers.get("x-ratelimit-remaining")).toBe("9");
    expect((await list(key, "9.9.9.9, 198.51.100.1")).status).toBe(200); // another address, a good key
  });
});

describe("per-account limits", () => {
  it("limits sheet registrations and key creations per account per hour", async () => {
    const user = await createUser({ email: "busy@example.com" });
    const now = Date.now();
    for (let i = 0; i < ACCOUNT_ACTION_LIMITS.createKey; i++) await limitAccountAction(user.id, "createKey", now + i);
    await expect(limitAccountAction(user.id, "createKey", now + 100)).rejects.toMatchObject({
      code: "rate_limit_exceeded",
      message: expect.stringMatching(/at most 50 an hour/),
      // Its rate-limit headers describe the window it exceeded.
      headers: { "X-RateLimit-Limit": "50", "X-RateLimit-Remaining": "0", "RateLimit-Policy": "50;w=3600" },
    });
    await expect(limitAccountAction(user.id, "register", now + 100)).resolves.toBeUndefined(); // separate budgets
    await expect(limitAccountAction(user.id, "createKey", now + 3_600_001)).resolves.toBeUndefined(); // an hour later
  });
});
