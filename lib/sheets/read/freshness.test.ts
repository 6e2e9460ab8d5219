// What sets us apart on freshness and safety: edits made in the Sheets UI show within the sheet's
// cache TTL however late Drive's modifiedTime moves (and sooner when Drive reports them early);
// no-cache reads the sheet itself; ETags with 304; If-Match with 412; the last good copy served
// STALE while Google is rate limiting; idempotent creates.
import { randomUUID } from "node:crypto";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { createUser } from "@/db/queries/users";
import { DEFAULT_MODIFIED_TIME_LAG_MS } from "@/emulators/google/model";
import { setLimitStore } from "@/lib/store/store";
import { metricNow } from "@/testing/metrics";
import { rowsClient } from "@/testing/rows-client";
import type { TestService } from "@/testing/service";
import { serviceAndStores } from "@/testing/stores";
import { registeredKey } from "@/testing/google";

const CHECK_MS = 300;
let svc: TestService;
const stores = await serviceAndStores((s) => (svc = s), {
  env: { CHANGE_CHECK_INTERVAL_MS: String(CHECK_MS), GOOGLE_RETRY_BUDGET_MS: "200" },
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const SA = "sheetapi-local@sheetapi-local.iam.gserviceaccount.com";

describe.each(stores)("on the %s store", (storeName, makeStore) => {
  let sheetId: string;
  let api: ReturnType<typeof rowsClient>;
  const names = async () =>
    ((await api.list("Items", "select=name")).body.data as { name: string }[]).map((r) => r.name);
  const edit = (range: string, value: string) =>
    svc.admin(`/spreadsheets/${sheetId}/values`, { range, values: [[value]] });

  beforeAll(async () => {
    setLimitStore(makeStore());
    sheetId = String(
      (
        await svc.admin("/spreadsheets", {
          title: `Freshness ${storeName}`,
          members: { [SA]: "writer", "owner@example.com": "owner" },
          tabs: [
            {
              title: "Items",
              rows: [
                ["id", "name", "qty"],
                [1, "apple", 3],
                [2, "pear", 5],
              ],
            },
            {
              title: "Other",
              rows: [
                ["id", "x"],
                [1, "y"],
              ],
            },
          ],
        })
      ).spreadsheetId,
    );
    const user = await createUser({ email: `fresh-${storeName}-${randomUUID()}@example.com`, plan: "business" });
    api = rowsClient(sheetId, await registeredKey(user, sheetId));
  });
  const setTtl = async (seconds: number) => {
    await svc.db.db.execute(
      sql`update sheets set cache_ttl_seconds = ${seconds}, version = version + 1 where id = ${sheetId}`,
    );
    const { getSheet } = await import("@/db/queries/sheets");
    const { publishSheet } = await import("@/lib/sheets/sheet-record");
    await publishSheet(await getSheet({ id: sheetId }));
  };
  const driveModifiedTime = async () => {
    const { createGoogleClients } = await import("@/lib/google/clients");
    const { config } = await import("@/lib/env");
    const { drive } = createGoogleClients(config().google, { kind: "serviceAccount" });
    return (await drive.files.get({ fileId: sheetId, fields: "modifiedTime", supportsAllDrives: true })).data
      .modifiedTime;
  };

  beforeEach(() => {
    svc.google.calls.clear();
    svc.google.faults.clear();
    // Unless a test says otherwise, Drive reports edits at once (the early hint).
    svc.google.setModifiedTimeLag(0);
  });

  describe("change-aware cache", () => {
    it("shows an edit made in the sheet within the sheet's TTL while Drive's modifiedTime lags it by minutes", async () => {
      const TTL_S = 2;
      svc.google.setModifiedTimeLag(DEFAULT_MODIFIED_TIME_LAG_MS);
      await setTtl(TTL_S);
      await names(); // warm
      const before = await driveModifiedTime();
      await edit("'Items'!B2", "quince"); // in the Sheets UI, not through the API
      const editedAt = Date.now();
      // Served from cache within the TTL: Drive's silence is no proof, but the TTL allows it.
      expect((await api.list("Items")).headers.get("x-cache")).toBe("HIT");
      let shownAfter = -1;
      while (Date.now() - editedAt < TTL_S * 1000 + 3000) {
        if ((await names())[0] === "quince") {
          shownAfter = Date.now() - editedAt;
          break;
        }
        await sleep(100);
      }
      expect(shownAfter).toBeGreaterThan(0);
      // The bound holds: shown within the TTL (plus one read's time), while Drive still says nothing.
      expect(shownAfter).toBeLessThanOrEqual(TTL_S * 1000 + 500);
      expect(await driveModifiedTime()).toBe(before);
      await setTtl(10);
    });

    it("re-reads nothing while the file is unchanged, and shows an edit sooner than the TTL once Drive reports it", async () => {
      // Warm, and once more after Drive reported the edit of the test before (its lag is over now).
      await names();
      await sleep(CHECK_MS + 50);
      await names();
      svc.google.calls.clear();
      for (let i = 0; i < 8; i++) {
        expect((await api.list("Items")).headers.get("x-cache")).toBe("HIT");
        await sleep(CHECK_MS / 2);
      }
      expect(svc.google.calls.get("values.get") ?? 0).toBe(0); // no Sheets read at all
      const driveChecks = svc.google.calls.get("files.get") ?? 0;
      expect(driveChecks).toBeGreaterThanOrEqual(2); // asked Drive...
      expect(driveChecks).toBeLessThanOrEqual(5); // ...at most once per interval

      await edit("'Items'!B2", "apricot"); // in the Sheets UI, not through the API
      await sleep(CHECK_MS + 50);
      const res = await api.list("Items", "select=name");
      expect(res.headers.get("x-cache")).toBe("MISS");
      expect((res.body.data as { name: string }[])[0]!.name).toBe("apricot");
      expect(svc.google.calls.get("values.get")).toBe(1);
    });

    it("falls back to the sheet's TTL when Drive cannot answer", async () => {
      await names();
      await sleep(CHECK_MS + 50);
      svc.google.faults.add({ route: "files.get", status: 500, count: -1 });
      svc.google.calls.clear();
      expect((await api.list("Items")).headers.get("x-cache")).toBe("HIT"); // within the 10 s TTL
      expect(svc.google.calls.get("values.get") ?? 0).toBe(0);
    });

    it("does not hold cached reads while Drive is slow, and shows an edit once Drive answers", async () => {
      await names();
      await sleep(CHECK_MS + 50);
      await edit("'Items'!B2", "quince");
      svc.google.faults.add({ route: "files.get", delayMs: 1500, count: 1 });
      const started = Date.now();
      const answers = await Promise.all(Array.from({ length: 5 }, () => api.list("Items", "select=name")));
      // Each waited at most the change check's bound (300 ms), not Drive's 1.5 s.
      expect(Date.now() - started).toBeLessThan(1000);
      expect(answers.map((a) => a.headers.get("x-cache"))).toEqual(["HIT", "HIT", "HIT", "HIT", "HIT"]);
      // Drive's late answer still reports the edit: the next read shows it.
      await sleep(1500);
      expect(await names()).toContain("quince");
      await edit("'Items'!B2", "apricot");
    });

    it("answers Cache-Control: no-cache by reading the sheet itself, whatever Drive says", async () => {
      svc.google.setModifiedTimeLag(DEFAULT_MODIFIED_TIME_LAG_MS);
      await sleep(CHECK_MS); // past the failed Drive answer of the test before
      await names();
      // Edited a moment ago, Drive still silent: no-cache sees it.
      await edit("'Items'!C2", "77");
      svc.google.calls.clear();
      const fresh = await api.list("Items", "select=qty", { "Cache-Control": "no-cache" });
      expect(fresh.headers.get("x-cache")).toBe("MISS");
      expect((fresh.body.data as { qty: string }[])[0]!.qty).toBe("77");
      expect(svc.google.calls.get("values.get")).toBe(1);
    });
  });

  describe("conditional requests", () => {
    it("answers 304 with no body to If-None-Match, counted, and 200 once the rows change", async () => {
      const first = await api.list("Items");
      const etag = first.headers.get("etag")!;
      expect(etag).toMatch(/^"[\w-]+"$/);
      const again = await api.list("Items", "", { "If-None-Match": etag });
      expect(again.status).toBe(304);
      expect(again.body).toEqual({});
      expect(again.headers.get("etag")).toBe(etag);
      // What the 200 varies on (it may be compressed), so a cache that refreshes its copy keeps it apart.
      expect(again.headers.get("vary")).toContain("Accept-Encoding");
      expect(Number(again.headers.get("x-ratelimit-remaining"))).toBe(
        Number(first.headers.get("x-ratelimit-remaining")) - 1,
      );
      await api.update("Items", "2", { qty: 6 });
      const changed = await api.list("Items", "", { "If-None-Match": etag });
      expect(changed.status).toBe(200);
      expect(changed.headers.get("etag")).not.toBe(etag);
    });

    it("refuses a PUT or DELETE with a stale If-Match (412), changing nothing, and applies a current one", async () => {
      const read = await api.get("Items", "1");
      const etag = read.headers.get("etag")!;
      expect((await api.get("Items", "1", "", { "If-None-Match": etag })).status).toBe(304);
      await edit("'Items'!C2", "99"); // someone else changes the row
      const stale = await api.update("Items", "1", { name: "mine" }, { "If-Match": etag });
      expect(stale.status).toBe(412);
      expect(stale.body).toMatchObject({ success: false, error: "precondition_failed" });
      expect((await api.remove("Items", "1", { "If-Match": etag })).status).toBe(412);
      const now = await api.get("Items", "1", "", { "Cache-Control": "no-cache" });
      expect(now.body.data).toMatchObject({ name: (read.body.data as { name: string }).name, qty: "99" });

      const ok = await api.update("Items", "1", { name: "mine" }, { "If-Match": now.headers.get("etag")! });
      expect(ok.status).toBe(200);
      const latest = ok.headers.get("etag")!;
      expect((await api.remove("Items", "1", { "If-Match": now.headers.get("etag")! })).status).toBe(412);
      expect((await api.remove("Items", "1", { "If-Match": latest })).status).toBe(200);
    });
  });

  describe("idempotent creates", () => {
    it("writes one row for 20 concurrent retries with the same key, and answers each the same", async () => {
      const key = randomUUID();
      const answers = await Promise.all(
        Array.from({ length: 20 }, () => api.create("Items", { name: "once", qty: 1 }, { "Idempotency-Key": key })),
      );
      expect(answers.map((a) => a.status)).toEqual(Array(20).fill(201));
      expect(new Set(answers.map((a) => JSON.stringify(a.body))).size).toBe(1);
      expect(answers.filter((a) => a.headers.get("idempotent-replayed") === "true")).toHaveLength(19);
      expect((await names()).filter((n) => n === "once")).toHaveLength(1);
      // Later, still the same answer and no new row.
      const later = await api.create("Items", { name: "once", qty: 1 }, { "Idempotency-Key": key });
      expect([later.status, later.headers.get("idempotent-replayed")]).toEqual([201, "true"]);
      expect((await names()).filter((n) => n === "once")).toHaveLength(1);
    });

    it("refuses the same key with another body, and a malformed key", async () => {
      const key = randomUUID();
      expect((await api.create("Items", { name: "a" }, { "Idempotency-Key": key })).status).toBe(201);
      const reused = await api.create("Items", { name: "b" }, { "Idempotency-Key": key });
      expect(reused.status).toBe(409);
      expect(String(reused.body.message)).toMatch(/different request/);
      expect((await api.create("Items", { name: "c" }, { "Idempotency-Key": "" })).status).toBe(400);
      expect((await names()).filter((n) => n === "b" || n === "c")).toEqual([]);
    });
  });

  describe("a slow Google", () => {
    it("answers from the expired copy, marked STALE, after a short wait, and the late read serves the reads after it", async () => {
      const { STALE_AFTER_MS } = await import("./tab-cache");
      const before = await names();
      await edit("'Items'!B3", "slow pear");
      await sleep(CHECK_MS + 50);
      for (const route of ["values.get", "values.batchGet"] as const)
        svc.google.faults.add({ route, delayMs: STALE_AFTER_MS + 1500 });
      const started = Date.now();
      const stale = await api.list("Items", "select=name");
      expect([stale.status, stale.headers.get("x-cache")]).toEqual([200, "STALE"]);
      expect(Date.now() - started).toBeLessThan(STALE_AFTER_MS + 1000);
      expect((stale.body.data as { name: string }[]).map((r) => r.name)).toEqual(before);
      // A read joining the slow read still under way waits only what is left of the wait: none.
      const joined = Date.now();
      const again = await api.list("Items", "select=name");
      expect([again.status, again.headers.get("x-cache")]).toEqual([200, "STALE"]);
      expect(Date.now() - joined).toBeLessThan(STALE_AFTER_MS / 2);
      // Once the late read has landed, its copy serves the reads after it.
      await sleep(1800);
      expect(await names()).toContain("slow pear");
    });
  });

  describe("Google rate limiting", () => {
    it("serves the last good copy marked STALE within the sheet's bound, and fails writes cleanly", async () => {
      const before = await names();
      await edit("'Items'!B3", "changed in the sheet");
      await sleep(CHECK_MS + 50);
      svc.google.faults.add({ route: "values.get", status: 429, count: -1 });
      const stale = await api.list("Items", "select=name");
      expect([stale.status, stale.headers.get("x-cache")]).toEqual([200, "STALE"]);
      expect((stale.body.data as { name: string }[]).map((r) => r.name)).toEqual(before);
      svc.google.faults.add({ route: "spreadsheets.batchUpdate", status: 429, count: -1 });
      // Writes read the tab fresh and never take a stale copy: they fail cleanly instead.
      for (const write of [await api.create("Items", { name: "x" }), await api.update("Items", "1", { name: "y" })]) {
        expect(write.status).toBe(503);
        expect(write.body).toMatchObject({ success: false, error: "service_unavailable" });
      }
      // /health still answers 200 (the service serves what it can) and says Google is failing
      // once most of the latest calls were refused (a rate limit is retried a second apart).
      for (let i = 0; i < 3; i++) expect((await api.list("Items", "select=name")).headers.get("x-cache")).toBe("STALE");
      const { callRoute } = await import("@/testing/routes");
      const health = await callRoute((await import("@/app/health/route")).GET, { path: "/health", params: {} });
      expect(health.status).toBe(200);
      expect(health.body).toMatchObject({ status: "degraded", checks: { sheets_backend: { status: "degraded" } } });
      // The figures behind it are in /metrics (behind its token), not in the public /health.
      expect(metricNow("sheetapi_google_calls_total", { outcome: "rate_limited" })).toBeGreaterThan(0);

      // Past the owner's bound (here: 0 s), no stale copy: a clean 503.
      await svc.db.db.execute(
        sql`update sheets set max_stale_seconds = 0, version = version + 1 where id = ${sheetId}`,
      );
      const { getSheet } = await import("@/db/queries/sheets");
      const { publishSheet } = await import("@/lib/sheets/sheet-record");
      await publishSheet(await getSheet({ id: sheetId }));
      const refused = await api.list("Items");
      expect(refused.status).toBe(503);
      svc.google.faults.clear();
      expect((await api.list("Items")).status).toBe(200);
    });
  });
});
