// What a key route answers before its handler runs: the key is checked (and the request counted)
// before a 405, so a valid key's 405 carries the limit headers and counts (SPEC Limits 5-6); CORS
// on every answer and preflight; burst members are the server's own; a flood of bad keys from an
// address never refuses a valid key; plan names are only the plans sold.
import { PEER_ADDRESS_HEADER, stampPeer } from "@/lib/http/peer-address";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser, getUserById, setUserPlan } from "@/db/queries/users";
import { DEMO_SPREADSHEET_ID } from "@/emulators/google/seed";
import { memoryStore, setLimitStore } from "@/lib/store/store";
import { callRoute } from "@/testing/routes";
import { storesUnderTest } from "@/testing/stores";
import { startTestService, type TestService } from "@/testing/service";
import { registeredKey } from "@/testing/google";

const { stores, start, stop } = await storesUnderTest();
let svc: TestService;
let key: string;
let userId: string;
const sheetId = DEMO_SPREADSHEET_ID;
const rowsRoute = () => import("@/app/api/v1/[sheetId]/[tabName]/route");
const params = { sheetId, tabName: "Products" };
const path = `/api/v1/${sheetId}/Products`;

beforeAll(async () => {
  // TRUSTED_PROXY_HOPS is left at its default: no proxy header is trusted.
  svc = await startTestService({ env: { INVALID_KEY_LIMIT_PER_MINUTE: "3" } });
  await start();
  setLimitStore(memoryStore());
  const user = await createUser({ email: "checks-first@example.com", plan: "business" });
  userId = user.id;
  key = await registeredKey({ id: userId, email: null }, sheetId);
});
afterAll(async () => {
  await stop();
  await svc.stop();
});

const remaining = (res: { headers: Headers }) => Number(res.headers.get("x-ratelimit-remaining"));

describe("405 on key routes", () => {
  it("checks the key first: 401 without one, and a valid key's 405 is counted with the limit headers and CORS", async () => {
    const mod = await rowsRoute();
    const noKey = await callRoute(mod.PUT, { method: "PUT", path, params, body: { a: 1 } });
    expect(noKey.status).toBe(401);
    expect(noKey.headers.get("access-control-allow-origin")).toBe("*");

    const before = await callRoute(mod.GET, { path, params, headers: { "X-API-Key": key } });
    const refused = await callRoute(mod.PUT, { method: "PUT", path, params, headers: { "X-API-Key": key } });
    expect(refused.status).toBe(405);
    expect(refused.body).toMatchObject({ success: false, error: "method_not_allowed" });
    expect(refused.headers.get("allow")).toBe("GET, POST, PATCH, DELETE, OPTIONS");
    expect(refused.headers.get("x-ratelimit-limit")).toMatch(/^\d+$/);
    expect(refused.headers.get("access-control-allow-origin")).toBe("*");
    expect(remaining(refused)).toBe(remaining(before) - 1);
    const after = await callRoute(mod.GET, { path, params, headers: { "X-API-Key": key } });
    expect(remaining(after)).toBe(remaining(before) - 2);
  });

  it("answers the CORS preflight and 405s of schema, refresh-schema and usage with CORS headers", async () => {
    const schema = await import("@/app/api/[sheetId]/schema/route");
    const refresh = await import("@/app/api/[sheetId]/refresh-schema/route");
    const usage = await import("@/app/billing/usage/route");
    for (const [mod, methods] of [
      [schema, "GET, OPTIONS"],
      [refresh, "POST, OPTIONS"],
      [usage, "GET, OPTIONS"],
    ] as [Record<string, unknown>, string][]) {
      const preflight = mod.OPTIONS as (req: Request) => Promise<Response>;
      const pre = await preflight(
        new Request("http://localhost/", { method: "OPTIONS", headers: { Origin: "https://app.example" } }),
      );
      expect(pre.status).toBe(204);
      expect(pre.headers.get("access-control-allow-methods")).toBe(methods);
      expect(pre.headers.get("access-control-allow-origin")).toBe("*");
      expect(pre.headers.get("access-control-allow-headers")).toContain("X-API-Key");
      expect(pre.headers.get("x-ratelimit-limit")).toBeNull(); // a browser's preflight carries no key
      // A script's OPTIONS with a live key gets the account's windows, uncounted.
      const keyed = await preflight(
        new Request("http://localhost/", { method: "OPTIONS", headers: { "X-API-Key": key } }),
      );
      expect([keyed.status, keyed.headers.get("x-ratelimit-remaining")]).toEqual([204, expect.stringMatching(/^\d+$/)]);
    }
    const counted = await callRoute(schema.GET, {
      path: `/api/${sheetId}/schema`,
      params: { sheetId },
      headers: { "X-API-Key": key },
    });
    const again = await (schema.OPTIONS as (req: Request) => Promise<Response>)(
      new Request("http://localhost/", { method: "OPTIONS", headers: { "X-API-Key": key } }),
    );
    expect(again.headers.get("x-ratelimit-remaining")).toBe(counted.headers.get("x-ratelimit-remaining"));
    const wrong = await callRoute(schema.DELETE, {
      method: "DELETE",
      path: `/api/${sheetId}/schema`,
      params: { sheetId },
      headers: { "X-API-Key": key },
    });
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get("access-control-allow-origin")).toBe("*");
    expect(wrong.headers.get("x-ratelimit-remaining")).toMatch(/^\d+$/);
    const usageWrong = await callRoute(usage.POST, {
      method: "POST",
      path: "/billing/usage",
      params: {},
      headers: { "X-API-Key": key },
      body: {},
    });
    expect(usageWrong.status).toBe(405);
    expect(usageWrong.headers.get("access-control-allow-origin")).toBe("*");
  });
});

describe("usage with a bad key", () => {
  it("speaks of no sheet: the route has none", async () => {
    const { GET } = await import("@/app/billing/usage/route");
    for (const bad of ["not-a-key", "shk_0000000000000000000000000000000000000B"]) {
      const res = await callRoute(GET, { path: "/billing/usage", params: {}, headers: { "X-API-Key": bad } });
      expect(res.status).toBe(401);
      expect(res.body.message).toBe("Invalid API key.");
    }
  });
});

describe("burst window", () => {
  it.each(stores)(
    "counts every request, whatever X-Request-Id the client sends (%s store)",
    async (name, makeStore) => {
      setLimitStore(makeStore());
      const { PUBLIC_READONLY_SPREADSHEET_ID } = await import("@/emulators/google/seed");
      const trial = await createUser({ email: `burst-member-${name}@example.com` });
      const copy = String((await svc.admin(`/spreadsheets/${PUBLIC_READONLY_SPREADSHEET_ID}/copy`, {})).spreadsheetId);
      const trialKey = await registeredKey(trial, copy);
      const { GET } = await import("@/app/api/[sheetId]/schema/route");
      const statuses: number[] = [];
      for (let i = 0; i < 7; i++) {
        const res = await callRoute(GET, {
          path: `/api/${copy}/schema`,
          params: { sheetId: copy },
          headers: { "X-API-Key": trialKey, "X-Request-Id": "constant-request-id-1234" },
        });
        statuses.push(res.status);
        expect(res.headers.get("x-request-id")).toBe("constant-request-id-1234"); // still echoed
      }
      expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429]); // Free Trial: 5 a minute
      setLimitStore(memoryStore());
    },
  );
});

describe("invalid-key throttle", () => {
  it("by default trusts no proxy header: rotating X-Forwarded-For does not dodge it", async () => {
    const { GET } = await rowsRoute();
    const bad = "shk_0000000000000000000000000000000000000C";
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++)
      statuses.push(
        (await callRoute(GET, { path, params, headers: { "X-API-Key": bad, "X-Forwarded-For": `10.0.0.${i}` } }))
          .status,
      );
    expect(statuses).toEqual([401, 401, 401, 429, 429]);
  });

  it("without a trusted proxy, counts by the address that connected to the server", async () => {
    const { GET } = await rowsRoute();
    const bad = "shk_0000000000000000000000000000000000000E";
    const from = (peer: string, forwarded: string) =>
      callRoute(GET, {
        path,
        params,
        headers: { "X-API-Key": bad, "X-Forwarded-For": forwarded, [PEER_ADDRESS_HEADER]: peer },
      });
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await from(stampPeer("192.0.2.1"), `10.0.1.${i}`)).status);
    expect(statuses).toEqual([401, 401, 401, 429]);
    // Another client is not refused for the first one's bad keys...
    expect((await from(stampPeer("192.0.2.2"), "10.0.1.0")).status).toBe(401);
    // ...an address in the same IPv6 /64 is the same client...
    for (let i = 1; i <= 3; i++) expect((await from(stampPeer(`2001:db8:0:7::${i}`), "10.0.1.0")).status).toBe(401);
    expect((await from(stampPeer("2001:db8:0:7::99"), "10.0.1.0")).status).toBe(429);
    // ...and an address the server did not stamp is no address a client may choose: the shared allowance.
    for (let i = 0; i < 5; i++) await from(`192.0.2.${100 + i}`, "10.0.1.0");
    expect((await from("192.0.2.200", "10.0.1.0")).status).toBe(429);
  });

  it("never refuses a valid key because its address sent bad ones", async () => {
    const { GET } = await rowsRoute();
    const bad = "shk_0000000000000000000000000000000000000D";
    for (let i = 0; i < 4; i++)
      await callRoute(GET, { path, params, headers: { "X-API-Key": bad, "X-Forwarded-For": "10.9.9.9" } });
    expect(
      (await callRoute(GET, { path, params, headers: { "X-API-Key": bad, "X-Forwarded-For": "10.9.9.9" } })).status,
    ).toBe(429);
    const res = await callRoute(GET, { path, params, headers: { "X-API-Key": key, "X-Forwarded-For": "10.9.9.9" } });
    expect(res.status).toBe(200);
  });
});

describe("plans", () => {
  it("accepts only the plans sold: inherited names and unknown names are refused", async () => {
    const { isPlanId, planOf, PLANS } = await import("@/lib/plans");
    const { changePlan, accountLimits } = await import("@/lib/limits/accounts");
    for (const name of ["__proto__", "constructor", "toString", "hasOwnProperty", "enterprise", ""]) {
      expect(isPlanId(name)).toBe(false);
      expect(planOf(name)).toBe(PLANS.free_trial);
      await expect(changePlan(userId, name)).rejects.toMatchObject({ code: "validation_error" });
    }
    expect((await getUserById({ id: userId }))?.plan).toBe("business");
    // A plan name already stored wrongly still limits the account as Free Trial.
    const odd = await createUser({ email: "proto-plan@example.com" });
    await setUserPlan({ id: odd.id, plan: "__proto__" });
    expect((await accountLimits(odd.id)).plan).toBe("free_trial");
  });
});
