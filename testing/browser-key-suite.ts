// The browser (publishable) key suite, in-process through the route handlers against
// emulators/google: origins (CORS answers name the origin; others 403), Read only, tabs and
// columns hidden from every read, the per-visitor limit on top of the plan, and edits and
// revocations that apply from the next request. Run on the embedded stores and on the real ones.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser } from "@/db/queries/users";
import type { User } from "@/db/schema";
import { setLimitStore, type LimitStore } from "@/lib/store/store";
import { registeredKey } from "@/testing/google";
import { config } from "@/lib/env";
import { callRoute } from "@/testing/routes";
import { startTestService, type TestService } from "@/testing/service";

const SA = "sheetapi-local@sheetapi-local.iam.gserviceaccount.com";
const SHOP = "https://shop.example.com";
const ITEMS = [
  ["id", "name", "price", "cost", "supplier"],
  [1, "Lamp", 24.5, 11, "Acme secret supplier"],
  [2, "Chair", 249, 120, "Globex"],
  [3, "Mat", 12, 5, "Acme secret supplier"],
];

export function browserKeySuite(name: string, stores: { postgresUrl?: string; makeStore: () => LimitStore }) {
  describe(`browser keys (${name})`, () => {
    let svc: TestService;
    let owner: User;
    let sheetId: string;
    let manage: typeof import("@/lib/keys/manage");
    let secret: string;

    const enc = encodeURIComponent;
    const route = (kind: "list" | "row" | "aggregate" | "distinct" | "events") =>
      ({
        list: () => import("@/app/api/v1/[sheetId]/[tabName]/route"),
        row: () => import("@/app/api/v1/[sheetId]/[tabName]/[rowId]/route"),
        aggregate: () => import("@/app/api/v1/[sheetId]/[tabName]/%5Faggregate/route"),
        distinct: () => import("@/app/api/v1/[sheetId]/[tabName]/%5Fdistinct/route"),
        events: () => import("@/app/api/[sheetId]/events/route"),
      })[kind]();
    /** A read as a page on `origin` makes it (null: no Origin header, as curl), from visitor address `ip`. */
    const read = async (
      key: string,
      path: string,
      {
        origin = SHOP as string | null,
        ip = "198.51.100.1",
        method = "GET",
        headers = {} as Record<string, string>,
      } = {},
    ) => {
      const [pathname, query = ""] = path.split("?");
      const [tab, rowId] = pathname!.split("/");
      const kind =
        tab === "_events"
          ? "events"
          : rowId === "_aggregate"
            ? "aggregate"
            : rowId === "_distinct"
              ? "distinct"
              : rowId
                ? "row"
                : "list";
      const mod = (await route(kind)) as Record<string, unknown>;
      const url =
        kind === "events" ? `/api/${sheetId}/events` : `/api/v1/${sheetId}/${enc(tab!)}${rowId ? `/${rowId}` : ""}`;
      const params =
        kind === "events" ? { sheetId } : { sheetId, tabName: tab!, ...(kind === "row" ? { rowId: rowId! } : {}) };
      return callRoute(mod[method], {
        method,
        path: `${url}${query ? `?${query}` : ""}`,
        params,
        headers: {
          "X-API-Key": key,
          "X-Forwarded-For": `10.9.9.9, ${ip}`,
          ...(origin ? { Origin: origin } : {}),
          ...headers,
        },
        body: method === "POST" ? { name: "Sneaky" } : undefined,
      });
    };
    const browserKey = async (
      browser: Parameters<typeof manage.createKeyForSheet>[0]["browser"],
      permissions: ("read" | "write")[] = ["read"],
    ) =>
      (
        await manage.createKeyForSheet({
          userId: owner.id,
          sheetId,
          name: `web ${randomUUID().slice(0, 6)}`,
          permissions,
          browser,
        })
      ).value;
    const errorOf = (p: Promise<unknown>) =>
      p.then(
        () => undefined,
        (e: { code?: string; message?: string }) => e,
      );

    beforeAll(async () => {
      svc = await startTestService({
        postgresUrl: stores.postgresUrl,
        env: { TRUSTED_PROXY_HOPS: "1", CHANGE_CHECK_INTERVAL_MS: "600000" },
      });
      setLimitStore(stores.makeStore());
      manage = await import("@/lib/keys/manage");
      owner = await createUser({ email: `browser-${name}-${randomUUID()}@example.com`, plan: "business" });
      sheetId = String(
        (
          await svc.admin("/spreadsheets", {
            title: "Shop",
            members: { [SA]: "writer", [owner.email!]: "owner" },
            tabs: [
              { title: "Items", rows: ITEMS },
              {
                title: "Payroll",
                rows: [
                  ["id", "salary"],
                  [1, 90000],
                ],
              },
            ],
          })
        ).spreadsheetId,
      );
      secret = await registeredKey(owner, sheetId);
    });
    afterAll(async () => {
      setLimitStore(undefined);
      await svc.stop();
    });

    it("issues shp_ keys that only read, and only with at least one valid origin", async () => {
      const { hasValidChecksum } = await import("@/lib/api-key");
      const value = await browserKey({ origins: [`${SHOP}/`] });
      expect(value).toMatch(/^shp_[0-9A-Za-z]{38}$/);
      expect(hasValidChecksum(value)).toBe(true);
      expect(secret).toMatch(/^shk_/);
      const listed = await manage.listKeysForSheet({ userId: owner.id, sheetId });
      expect(listed.find((k) => k.kind === "publishable")?.browser).toMatchObject({
        origins: [SHOP],
        tabs: null,
        columns: null,
        visitorLimit: 60,
      });
      expect(listed.find((k) => k.kind === "secret")?.browser).toBeNull();

      expect(await errorOf(browserKey({ origins: [SHOP] }, ["read", "write"]))).toMatchObject({
        code: "validation_error",
        message: expect.stringMatching(/only have the Read permission/),
      });
      expect(await errorOf(browserKey({ origins: [] }))).toMatchObject({
        code: "validation_error",
        message: expect.stringMatching(/at least one allowed origin/),
      });
      expect(await errorOf(browserKey({ origins: ["https://shop.example.com/catalog"] }))).toMatchObject({
        code: "validation_error",
        message: expect.stringMatching(/without a path/),
      });
      expect(await errorOf(browserKey({ origins: ["https://*.com"] }))).toMatchObject({ code: "validation_error" });
      expect(await errorOf(browserKey({ origins: [SHOP], visitorLimit: 0 }))).toMatchObject({
        code: "validation_error",
      });
      const key = listed.find((k) => k.kind === "publishable")!;
      expect(
        await errorOf(manage.updateKeyPermissions({ userId: owner.id, keyId: key.id, permissions: ["read", "write"] })),
      ).toMatchObject({ code: "validation_error" });
    });

    it("answers a listed origin with that origin in CORS; a missing or unlisted origin gets 403 that the page cannot read", async () => {
      const key = await browserKey({ origins: [SHOP, "https://*.example.org"] });
      const ok = await read(key, "Items");
      expect(ok.status).toBe(200);
      expect(ok.headers.get("access-control-allow-origin")).toBe(SHOP);
      expect(ok.headers.get("vary")).toMatch(/Origin/);
      expect((ok.body.data as unknown[]).length).toBe(3);
      expect((await read(key, "Items", { origin: "https://deep.shop.example.org" })).status).toBe(200);

      const remaining = async () =>
        Number((await read(key, "Items")).headers.get("ratelimit")!.match(/remaining=(\d+)/)![1]);
      const before = await remaining();
      for (const [origin, why] of [
        [null, /carries no Origin header/],
        ["https://evil.example.net", /"https:\/\/evil.example.net".*did not list it/],
        ["http://shop.example.com", /did not list it/],
        ["https://example.org", /did not list it/],
      ] as const) {
        const refused = await read(key, "Items", { origin });
        expect(refused.status).toBe(403);
        expect(refused.body).toMatchObject({ success: false, error: "forbidden", message: expect.stringMatching(why) });
        expect(refused.headers.get("access-control-allow-origin")).toBeNull();
        // Not the owner's doing (anyone can copy the key out of a page): not counted, as a key that
        // does not work here; its headers are the address's allowance for bad keys, not the account's.
        expect(refused.headers.get("ratelimit-policy")).toBe(`${config().env.INVALID_KEY_LIMIT_PER_MINUTE};w=60`);
      }
      expect(await remaining()).toBe(before - 1);

      // The preflight carries no key: it answers any origin, as for every key route.
      const { OPTIONS } = await import("@/app/api/v1/[sheetId]/[tabName]/route");
      const preflight = await callRoute(OPTIONS, {
        method: "OPTIONS",
        path: `/api/v1/${sheetId}/Items`,
        params: { sheetId, tabName: "Items" },
        headers: { Origin: "https://evil.example.net" },
      });
      expect(preflight.status).toBe(204);
      expect(preflight.headers.get("access-control-allow-origin")).toBe("*");
    });

    it("refuses writes, the change feed and anything but row reads, with a message that says why", async () => {
      const key = await browserKey({ origins: [SHOP] });
      const write = await read(key, "Items", { method: "POST" });
      expect(write.status).toBe(403);
      expect(write.body.message).toMatch(/Browser \(publishable\) keys only read/);
      expect(write.headers.get("access-control-allow-origin")).toBe(SHOP);
      const events = await read(key, "_events");
      expect(events.status).toBe(403);
      expect(events.body.message).toMatch(/read rows only/);
      expect((await read(secret, "Items", { method: "GET" })).status).toBe(200);
    });

    it("hides tabs and columns the owner did not choose from rows, CSV, aggregates, distinct, filters and sorts", async () => {
      const key = await browserKey({ origins: [SHOP], tabs: ["Items"], columns: ["name", "price"] });
      const list = await read(key, "Items?sort=price&order=desc");
      expect(list.status).toBe(200);
      expect(list.body.data).toEqual([
        { id: "2", name: "Chair", price: "249" },
        { id: "1", name: "Lamp", price: "24.5" },
        { id: "3", name: "Mat", price: "12" },
      ]);
      const row = await read(key, "Items/2");
      expect(row.body.data).toEqual({ id: "2", name: "Chair", price: "249" });
      const csv = await read(key, "Items", { headers: { Accept: "text/csv" } });
      expect(csv.status).toBe(200);
      expect(csv.text.split("\r\n")[0]).toBe("id,name,price");
      expect(csv.text).not.toMatch(/Acme|Globex|120/);
      const sum = await read(key, "Items/_aggregate?aggregate=count,sum:price");
      expect(sum.status).toBe(200);
      expect(JSON.stringify(sum.body)).toMatch(/285.5/);

      for (const query of [
        "Items?filter=supplier~acme",
        "Items?filter=cost>10",
        "Items?sort=cost",
        "Items?select=name,cost",
        "Items?or=supplier=Globex|name=Mat",
        "Items/_aggregate?aggregate=sum:cost",
        "Items/_aggregate?group_by=supplier",
        "Items/_distinct?column=supplier",
        "Items/2?select=cost",
      ]) {
        const refused = await read(key, query);
        expect(refused.status, query).toBe(400);
        expect(refused.body.error).toBe("validation_error");
        expect(refused.text, query).not.toMatch(/Acme|Globex|cost"|\bcost,|, cost|supplier,|, supplier/);
      }

      const hiddenTab = await read(key, "Payroll");
      expect(hiddenTab.status).toBe(404);
      expect(hiddenTab.body.message).toMatch(/Tabs it can read: Items\./);
      expect(hiddenTab.text).not.toMatch(/Payroll".*Payroll|salary/);
      expect((await read(key, "Payroll.csv")).status).toBe(404);

      // A secret key reads the same tab whole.
      const whole = await read(secret, "Items/2", { origin: null });
      expect(whole.body.data).toMatchObject({ cost: "120", supplier: "Globex" });
      expect(whole.headers.get("access-control-allow-origin")).toBe("*");
    });

    it("limits each visitor address per minute on top of the plan, with the limit headers on the 429", async () => {
      const key = await browserKey({ origins: [SHOP], visitorLimit: 3 });
      for (let i = 0; i < 3; i++) expect((await read(key, "Items", { ip: "203.0.113.5" })).status).toBe(200);
      const limited = await read(key, "Items", { ip: "203.0.113.5" });
      expect(limited.status).toBe(429);
      expect(limited.body).toMatchObject({
        error: "rate_limit_exceeded",
        message: expect.stringMatching(/visitor/),
        limit: { allowed: 3, current: 3 },
      });
      expect(limited.headers.get("x-ratelimit-limit")).toBe("3");
      expect(limited.headers.get("x-ratelimit-remaining")).toBe("0");
      expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(limited.headers.get("access-control-allow-origin")).toBe(SHOP); // the page can read why
      // Another visitor of the same key is unaffected; so is the account's secret key.
      expect((await read(key, "Items", { ip: "203.0.113.6" })).status).toBe(200);
      expect((await read(secret, "Items", { ip: "203.0.113.5", origin: null })).status).toBe(200);
    });

    it("serves a browser key from the cache even when the page asks for a fresh copy (no Google read per page view)", async () => {
      const key = await browserKey({ origins: [SHOP] });
      expect((await read(key, "Items")).status).toBe(200);
      const reads = () => (svc.google.calls.get("values.get") ?? 0) + (svc.google.calls.get("values.batchGet") ?? 0);
      const before = reads();
      for (const ask of [
        { headers: { "Cache-Control": "no-cache" } },
        { headers: { "Cache-Control": "max-age=0" } },
        { query: "fresh=true" },
      ]) {
        const res = await read(key, `Items${ask.query ? `?${ask.query}` : ""}`, { headers: ask.headers ?? {} });
        expect(res.status).toBe(200);
        expect(res.headers.get("x-cache")).toBe("HIT");
      }
      expect(reads()).toBe(before);
      // A secret key still gets the sheet as it is now.
      expect(
        (await read(secret, "Items", { origin: null, headers: { "Cache-Control": "no-cache" } })).headers.get(
          "x-cache",
        ),
      ).not.toBe("HIT");
      expect(reads()).toBe(before + 1);
    });

    it("applies edits and revocation from the next request", async () => {
      const value = await browserKey({ origins: [SHOP] });
      const keyId = (await manage.listKeysForSheet({ userId: owner.id, sheetId })).at(-1)!.id;
      expect((await read(value, "Items")).status).toBe(200);
      await manage.updateBrowserKey({
        userId: owner.id,
        keyId,
        browser: { origins: ["https://new.example.com"], columns: ["name"] },
      });
      expect((await read(value, "Items")).status).toBe(403);
      const moved = await read(value, "Items/1", { origin: "https://new.example.com" });
      expect(moved.body.data).toEqual({ id: "1", name: "Lamp" });
      await manage.updateBrowserKey({ userId: owner.id, keyId, browser: { origins: ["https://x.example.com"] } });
      expect(
        await errorOf(manage.updateBrowserKey({ userId: "usr_other", keyId, browser: { origins: [SHOP] } })),
      ).toMatchObject({ code: "not_found" });
      await manage.revokeKey({ userId: owner.id, keyId });
      const revoked = await read(value, "Items", { origin: "https://x.example.com" });
      expect(revoked.status).toBe(401);
      expect(
        await errorOf(manage.updateBrowserKey({ userId: owner.id, keyId, browser: { origins: [SHOP] } })),
      ).toMatchObject({ code: "validation_error" });
      const secretId = (await manage.listKeysForSheet({ userId: owner.id, sheetId }))[0]!.id;
      expect(
        await errorOf(manage.updateBrowserKey({ userId: owner.id, keyId: secretId, browser: { origins: [SHOP] } })),
      ).toMatchObject({ code: "validation_error" });
    });
  });
}
