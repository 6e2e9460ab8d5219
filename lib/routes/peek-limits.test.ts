// The routes that need no key carry the rate-limit headers of a live key the request sends,
// counting nothing; without a live key, those of the address's allowance for requests without a
// valid key (no 401, and the invalid-key guard is not fed); a slow or failing limit store costs
// them at most the budget.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser } from "@/db/queries/users";
import { DEMO_SPREADSHEET_ID } from "@/emulators/google/seed";
import { memoryStore, setLimitStore, type LimitStore } from "@/lib/store/store";
import { registeredKey } from "@/testing/google";
import { callRoute } from "@/testing/routes";
import { rowsClient } from "@/testing/rows-client";
import { startTestService, type TestService } from "@/testing/service";
import { PEEK_BUDGET_MS } from "./peek-limits";

let svc: TestService;
let store: LimitStore;
let api: ReturnType<typeof rowsClient>;
let revoked: string;

beforeAll(async () => {
  svc = await startTestService({ env: { INVALID_KEY_LIMIT_PER_MINUTE: "3", TRUSTED_PROXY_HOPS: "1" } });
  store = memoryStore();
  setLimitStore(store);
  const { createKeyForSheet, revokeKey } = await import("@/lib/keys/manage");
  const user = await createUser({ email: "keyless@example.com" }); // Free Trial: 5 a minute
  api = rowsClient(DEMO_SPREADSHEET_ID, await registeredKey(user, DEMO_SPREADSHEET_ID));
  const old = await createKeyForSheet({
    userId: user.id,
    sheetId: DEMO_SPREADSHEET_ID,
    name: "old",
    permissions: ["read"],
  });
  await revokeKey({ userId: user.id, keyId: old.key.id });
  revoked = old.value;
});
afterAll(async () => {
  setLimitStore(undefined);
  await svc.stop();
});

type Call = [
  name: string,
  module: () => Promise<Record<string, unknown>>,
  method: string,
  path: string,
  params: Record<string, string>,
];
const info = () => import("@/app/api/route");
const health = () => import("@/app/health/route");
const unknown = () => import("@/app/[...path]/route");
// /register and /auth/{provider} load next-auth, which runs only inside Next.js: e2e covers them.
const CALLS: Call[] = [
  ["GET /api", info, "GET", "/api", {}],
  ["DELETE /api (405)", info, "DELETE", "/api", {}],
  ["GET /health", health, "GET", "/health", {}],
  ["POST /health", health, "POST", "/health", {}],
  ["GET an unknown path", unknown, "GET", "/no/such/route", { path: "no/such/route" }],
  ["POST an unknown /api path", unknown, "POST", "/api/v2/whatever", { path: "api/v2/whatever" }],
  [
    "GET /docs/{sheetId}/openapi.json",
    () => import("@/app/docs/[sheetId]/openapi.json/route"),
    "GET",
    `/docs/${DEMO_SPREADSHEET_ID}/openapi.json`,
    { sheetId: DEMO_SPREADSHEET_ID },
  ],
];
const call = async ([, module, method, path, params]: Call, headers: Record<string, string> = {}) =>
  callRoute((await module())[method], { method, path, params, headers });
const limitOf = (res: { headers: Headers }) =>
  ["x-ratelimit-limit", "x-ratelimit-remaining", "x-ratelimit-reset", "ratelimit", "ratelimit-policy"].map((h) =>
    res.headers.get(h),
  );
const NO_HEADERS = [null, null, null, null, null];

describe("routes that need no key", () => {
  it("carry the live key's windows, errors included, and count nothing", async () => {
    expect((await api.list("Products")).headers.get("x-ratelimit-remaining")).toBe("4");
    for (const c of CALLS) {
      const plain = await call(c);
      expect(limitOf(plain), c[0]).toEqual(NO_HEADERS);
      for (const carrier of [{ "X-API-Key": api.key }, { Authorization: `Bearer ${api.key}` }] as Record<
        string,
        string
      >[]) {
        const keyed = await call(c, carrier);
        expect([keyed.status, keyed.body.success], c[0]).toEqual([plain.status, plain.body.success]);
        const [limit, remaining, reset, ietf, policy] = limitOf(keyed);
        expect([limit, remaining], c[0]).toEqual(["5", "4"]);
        expect(Number(reset), c[0]).toBeGreaterThan(Date.now() / 1000);
        expect(ietf, c[0]).toMatch(/^limit=5, remaining=4, reset=\d+$/);
        expect(policy, c[0]).toMatch(/^5;w=60, 10;w=3600, 100;w=86400, 3000;w=\d+$/);
      }
    }
    // Fourteen answers with headers, and the next counted request is the second.
    expect((await api.list("Products")).headers.get("x-ratelimit-remaining")).toBe("3");
  });

  it("answer as before to a missing, bad, revoked or doubled key: no 401 (and, with no address known, no headers)", async () => {
    const [getApi] = CALLS;
    const status = (await call(getApi!)).status;
    for (const headers of [
      { "X-API-Key": "shk_nope" },
      { "X-API-Key": "shk_0000000000000000000000000000000000000A" },
      { "X-API-Key": revoked },
      { Authorization: "Basic dXNlcjpwYXNz" },
      { "X-API-Key": api.key, Authorization: "Bearer shk_0000000000000000000000000000000000000A" },
    ] as Record<string, string>[]) {
      const res = await call(getApi!, headers);
      expect([res.status, ...limitOf(res)], JSON.stringify(headers)).toEqual([status, ...NO_HEADERS]);
    }
  });

  it("leave the invalid-key guard alone: bad keys here do not bring an address closer to 429", async () => {
    const from = { "X-Forwarded-For": "203.0.113.9" };
    for (let i = 0; i < 5; i++)
      expect(
        (await call(CALLS[0]!, { ...from, "X-API-Key": "shk_0000000000000000000000000000000000000A" })).status,
      ).toBe(200);
    const bad = rowsClient(DEMO_SPREADSHEET_ID, "shk_0000000000000000000000000000000000000A");
    expect((await bad.list("Products", "", from)).status).toBe(401);
  });

  it("without a live key, from a known address, carry that address's allowance for requests without a valid key", async () => {
    const from = { "X-Forwarded-For": "203.0.113.44" };
    for (const c of CALLS) {
      for (const headers of [from, { ...from, "X-API-Key": "shk_0000000000000000000000000000000000000A" }]) {
        const [limit, remaining, , ietf, policy] = limitOf(await call(c, headers));
        expect([limit, remaining, ietf?.split(", ").slice(0, 2).join(", "), policy], c[0]).toEqual([
          "3",
          "3",
          "limit=3, remaining=3",
          "3;w=60",
        ]);
      }
    }
    // A bad key on a key route spends one; these routes show what is left, and spend nothing.
    const bad = rowsClient(DEMO_SPREADSHEET_ID, "shk_0000000000000000000000000000000000000B");
    expect((await bad.list("Products", "", from)).headers.get("x-ratelimit-remaining")).toBe("2");
    expect(limitOf(await call(CALLS[2]!, from))[1]).toBe("2");
    expect(limitOf(await call(CALLS[2]!, from))[1]).toBe("2");
  });

  it("still answer, with the headers, once the key's account is at its limit", async () => {
    for (let i = 0; i < 3; i++) expect((await api.list("Products")).status).toBe(200);
    expect((await api.list("Products")).status).toBe(429);
    const res = await call(CALLS[0]!, { "X-API-Key": api.key });
    expect([res.status, res.headers.get("x-ratelimit-remaining")]).toEqual([200, "0"]);
  });

  describe("without a working limit store", () => {
    afterAll(() => setLimitStore(store));
    const replaceStore = (method: () => Promise<never>) =>
      setLimitStore(new Proxy(store, { get: (target, name) => (name === "kind" ? target.kind : method) }));
    const timed = async () => {
      const started = Date.now();
      const res = await call(CALLS[0]!, { "X-API-Key": api.key });
      return { res, ms: Date.now() - started };
    };

    it("answer within the budget, without headers, when the store hangs", async () => {
      replaceStore(() => new Promise<never>(() => undefined));
      const { res, ms } = await timed();
      expect([res.status, ...limitOf(res)]).toEqual([200, ...NO_HEADERS]);
      expect(ms).toBeGreaterThanOrEqual(PEEK_BUDGET_MS - 20);
      expect(ms).toBeLessThan(PEEK_BUDGET_MS + 250);
    });

    it("answer at once, without headers, when the store fails", async () => {
      replaceStore(() => Promise.reject(new Error("connect ECONNREFUSED")));
      const { res, ms } = await timed();
      expect([res.status, ...limitOf(res)]).toEqual([200, ...NO_HEADERS]);
      expect(ms).toBeLessThan(PEEK_BUDGET_MS + 250);
    });
  });
});
