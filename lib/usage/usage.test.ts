// Usage: every answer to a valid key is metered by status class into Postgres; GET /billing/usage
// reports the period as the limiter sees it; the hot path makes one round trip to the store.
// Run on the in-process store and on Upstash over the real Redis.
import { beforeAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { createUser } from "@/db/queries/users";
import { usageByDay, usageByKey } from "@/db/queries/usage";
import { DEMO_SPREADSHEET_ID } from "@/emulators/google/seed";
import { setLimitStore, type LimitStore } from "@/lib/store/store";
import { callRoute } from "@/testing/routes";
import { rowsClient } from "@/testing/rows-client";
import type { TestService } from "@/testing/service";
import { serviceAndStores } from "@/testing/stores";
import { flushUsage } from "./metering";
import { usageReport } from "./usage-report";
import { registeredKey } from "@/testing/google";

let svc: TestService;
const stores = await serviceAndStores((s) => (svc = s), { env: { GOOGLE_RETRY_BUDGET_MS: "200" } });

/** A store that counts its calls by method. */
function counting(store: LimitStore) {
  const calls: string[] = [];
  const proxy = new Proxy(store, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver) as unknown;
      if (typeof value !== "function") return value;
      return (...args: unknown[]) => {
        calls.push(String(prop));
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { store: proxy, calls };
}

const today = () => new Date().toISOString().slice(0, 10);
const usage = async (key: string) => {
  const { GET } = await import("@/app/billing/usage/route");
  return callRoute(GET, { path: "/billing/usage", params: {}, headers: { "X-API-Key": key } });
};

describe.each(stores)("usage on the %s store", (storeName, makeStore) => {
  let userId: string;
  let key: string;
  let api: ReturnType<typeof rowsClient>;
  let tracked: ReturnType<typeof counting>;

  beforeAll(async () => {
    tracked = counting(makeStore());
    setLimitStore(tracked.store);
    await svc.admin("/reset", {});
    await svc.db.db.execute(sql`truncate users cascade`);
    const user = await createUser({ email: `usage-${storeName}@example.com`, plan: "free_trial" }); // 5 a minute
    userId = user.id;
    key = await registeredKey(user, DEMO_SPREADSHEET_ID);
    api = rowsClient(DEMO_SPREADSHEET_ID, key);
  });

  it("makes one round trip to the store for a key this instance has seen", async () => {
    expect((await api.list("Products")).status).toBe(200); // learns the key's account
    tracked.calls.length = 0;
    expect((await api.get("Products", "1")).status).toBe(200);
    expect(tracked.calls).toEqual(["authorize"]);
  });

  it("meters every answer by status class; only 2xx, 3xx and 4xx count toward the plan", async () => {
    expect((await api.get("Products", "999")).status).toBe(404);
    svc.google.faults.add({ route: "values.get", status: 500, count: -1 });
    const { invalidateSheetData } = await import("@/lib/sheets/read/tab-cache");
    await invalidateSheetData(DEMO_SPREADSHEET_ID);
    expect((await api.list("Products")).status).toBe(502);
    svc.google.faults.clear();
    expect((await api.list("Products")).status).toBe(200); // 4th counted: 2 before, the 404, this
    expect((await api.list("Products")).status).toBe(200); // 5th: the burst is full
    expect((await api.list("Products")).status).toBe(429);
    const bad = rowsClient(DEMO_SPREADSHEET_ID, "shk_0000000000000000000000000000000000000A");
    expect((await bad.list("Products")).status).toBe(401); // no account to meter

    await flushUsage();
    const day = today();
    const rows = await usageByDay({ userId, from: day, to: "9999-12-31" });
    expect(Object.fromEntries(rows.map((r) => [r.statusClass, r.count]))).toEqual({
      "2xx": 4,
      "4xx": 1,
      "429": 1,
      "5xx": 1,
    });
    const byKey = await usageByKey({ userId, from: day, to: "9999-12-31", classes: ["2xx", "3xx", "4xx"] });
    expect(byKey).toMatchObject([{ day, name: "Default key", count: 5 }]);
  });

  it("reports the period on GET /billing/usage, even past a limit, without counting itself", async () => {
    const first = await usage(key);
    expect(first.status).toBe(200);
    const data = first.body.data as Awaited<ReturnType<typeof usageReport>>;
    expect(data.current_period).toMatchObject({ requests_used: 5, requests_limit: 3000, percentage_used: 0.17 });
    expect(Date.parse(data.current_period.end)).toBeGreaterThan(Date.now());
    expect(data.current_period.start).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(data.windows?.map((w) => [w.name, w.used, w.remaining])).toEqual([
      ["burst", 5, 0],
      ["hour", 5, 5],
      ["day", 5, 95],
      ["month", 5, 2995],
    ]);
    expect(first.headers.get("x-ratelimit-remaining")).toBe("0");
    expect((await usage(key)).body.data).toMatchObject({ current_period: { requests_used: 5 } });
  });

  it("a key without Analytics gets 403 with the account's limit headers, uncounted", async () => {
    const { createKeyForSheet } = await import("@/lib/keys/manage");
    const { value } = await createKeyForSheet({
      userId,
      sheetId: DEMO_SPREADSHEET_ID,
      name: "reader",
      permissions: ["read"],
    });
    const refused = await usage(value);
    expect(refused.status).toBe(403);
    expect(refused.headers.get("x-ratelimit-limit")).toBe("5");
    expect(refused.headers.get("x-ratelimit-remaining")).toBe("0");
    expect((await usage(key)).body.data).toMatchObject({ current_period: { requests_used: 5 } });
  });
});

describe("usage report arithmetic", () => {
  it("averages over the days elapsed (at least one) and projects over the period", async () => {
    const account = { userId: "nobody", plan: "starter" as const, billingAnchor: new Date("2026-01-10T00:00:00Z") };
    const month = (used: number) => ({
      allowed: true,
      shown: undefined as never,
      spec: undefined as never,
      windows: [{ name: "month" as const, limit: 10_000, used, remaining: 10_000 - used, reset: 0, seconds: 0 }],
    });
    // Ten days into a 31-day period (Oct 10 - Nov 10) with 1,000 requests.
    const r = await usageReport(account, Date.parse("2026-10-20T00:00:00Z"), month(1000));
    expect(r).toMatchObject({
      current_period: {
        start: "2026-10-10T00:00:00Z",
        end: "2026-11-10T00:00:00Z",
        requests_used: 1000,
        requests_limit: 10_000,
        percentage_used: 10,
      },
      daily_average: 100,
      projected_usage: 3100,
      plan: { id: "starter", name: "Starter" },
    });
    // Two hours in: the average is over one day, not extrapolated from two hours.
    const early = await usageReport(account, Date.parse("2026-10-10T02:00:00Z"), month(50));
    expect([early.daily_average, early.projected_usage]).toEqual([50, 1550]);
  });
});
