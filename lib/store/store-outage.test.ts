// DECISIONS 18a with the real thing: the limit store's Redis is killed mid-test and started again,
// through the Upstash bridge and on the plain Redis store: reads uncounted, writes 503 with
// Retry-After, /health says so, and every request is counted again once Redis is back.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser } from "@/db/queries/users";
import { DEMO_SPREADSHEET_ID } from "@/emulators/google/seed";
import { startUpstashEmulator, type UpstashEmulator } from "@/emulators/upstash/server";
import { PEEK_BUDGET_MS } from "@/lib/routes/peek-limits";
import { flushUsage } from "@/lib/usage/metering";
import { log, setLogTarget } from "@/lib/log";
import { redisStore, setLimitStore, upstashStore, type LimitStore } from "@/lib/store/store";
import { redisConnection, type RedisConnection } from "@/lib/store/redis-store";
import { upstashRedis } from "@/lib/store/upstash-requester";
import { redisProcess } from "@/testing/redis-process";
import { callRoute } from "@/testing/routes";
import { rowsClient } from "@/testing/rows-client";
import { startTestService, type TestService } from "@/testing/service";
import { registeredKey } from "@/testing/google";

const redis = await redisProcess();
const STORE_TIMEOUT_MS = 400;
let svc: TestService | undefined;
beforeAll(async () => {
  if (redis) svc = await startTestService();
});
// Each suite ends with Redis up again (its last test restarts it).
afterAll(async () => {
  await redis?.stop();
  await svc?.stop();
});

describe.skipIf(!redis).each(["upstash", "redis"] as const)(
  "limit store outage (Redis killed and restarted): %s store",
  (kind) => {
    let emulator: UpstashEmulator | undefined;
    let connection: RedisConnection | undefined;
    let api: ReturnType<typeof rowsClient>;
    let key: string;
    beforeAll(async () => {
      let store: LimitStore;
      if (kind === "upstash") {
        emulator = await startUpstashEmulator({ redisUrl: redis!.url, token: "t" });
        store = upstashStore(upstashRedis({ url: emulator.url, token: "t", timeoutMs: STORE_TIMEOUT_MS }));
      } else {
        connection = redisConnection({ url: redis!.url, timeoutMs: STORE_TIMEOUT_MS });
        store = redisStore(connection);
      }
      setLimitStore(store);
      const user = await createUser({ email: `outage-${kind}@example.com`, plan: "business" });
      key = await registeredKey(user, DEMO_SPREADSHEET_ID);
      api = rowsClient(DEMO_SPREADSHEET_ID, key);
    });
    afterAll(async () => {
      setLimitStore(undefined);
      await emulator?.stop();
      await connection?.close().catch(() => undefined);
    });

    const timed = async <T>(call: () => Promise<T>) => {
      const started = Date.now();
      const result = await call();
      return { result, ms: Date.now() - started };
    };
    const health = async () => callRoute((await import("@/app/health/route")).GET, { path: "/health", params: {} });
    const info = async () =>
      callRoute((await import("@/app/api/route")).GET, { path: "/api", params: {}, headers: { "X-API-Key": key } });
    const usage = async () =>
      callRoute((await import("@/app/billing/usage/route")).GET, {
        path: "/billing/usage",
        params: {},
        headers: { "X-API-Key": key },
      });

    it("counts normally while Redis is up", async () => {
      const read = await api.list("Products");
      expect([read.status, read.headers.get("x-ratelimit-limit")]).toEqual([200, "500"]);
      expect((await api.create("Products", { name: "Before" })).status).toBe(201);
      expect((await health()).status).toBe(200);
      expect((await info()).headers.get("x-ratelimit-limit")).toBe("500");
      // Counted in the store's ledger; rolled up into Postgres here as every USAGE_FLUSH_MS (counts
      // still in the ledger when the store goes down show once it is back).
      await flushUsage();
    });

    it("serves reads uncounted and refuses writes while Redis is down, each within its bound", async () => {
      await redis!.stop();
      const lines: Record<string, unknown>[] = [];
      log.level = "warn";
      setLogTarget({ write: (line: string) => lines.push(JSON.parse(line) as Record<string, unknown>) });
      const read = await timed(() => api.list("Products")).finally(() => {
        setLogTarget(undefined);
        log.level = "silent";
      });
      expect(read.result.status).toBe(200);
      expect(read.result.headers.get("x-ratelimit-limit")).toBeNull(); // not counted: no window to describe
      expect(read.ms).toBeLessThan(3 * STORE_TIMEOUT_MS + 1000);
      // The degraded-state warning names the request it was written for, without its caller passing it.
      expect(lines.find((l) => l.msg === "limits: store unavailable, serving the read uncounted")).toMatchObject({
        req_id: read.result.headers.get("x-request-id"),
        route: "/api/v1/{sheetId}/{tabName}",
        sheet: DEMO_SPREADSHEET_ID,
      });

      const write = await timed(() => api.create("Products", { name: "During" }));
      expect(write.result.status).toBe(503);
      expect(write.result.body).toMatchObject({ success: false, error: "service_unavailable" });
      expect(write.result.headers.get("retry-after")).toBe("5");
      expect(write.ms).toBeLessThan(3 * STORE_TIMEOUT_MS + 1000);

      const h = await health();
      expect(h.status).toBe(503);
      expect(h.body).toMatchObject({
        success: false,
        checks: { limit_store: { status: "down" }, database: { status: "ok" } },
      });
      expect(String(h.body.message)).toMatch(
        /Without the limit store, reads are served uncounted and writes are paused/,
      );

      const keyless = await timed(info);
      expect([keyless.result.status, keyless.result.headers.get("x-ratelimit-limit")]).toEqual([200, null]);
      expect(keyless.ms).toBeLessThan(PEEK_BUDGET_MS + 250);

      const u = await usage();
      expect(u.status).toBe(200);
      // From Postgres: the two answers before the outage and the read served during it (the 503 is not counted).
      expect(u.body.data).toMatchObject({ windows: null, current_period: { requests_used: 3 } });
    });

    it("recovers by itself when Redis is back", async () => {
      await redis!.start();
      let read = await api.list("Products");
      for (let i = 0; i < 20 && read.headers.get("x-ratelimit-limit") === null; i++) {
        await new Promise((r) => setTimeout(r, 250));
        read = await api.list("Products");
      }
      expect([read.status, read.headers.get("x-ratelimit-limit")]).toEqual([200, "500"]);
      const created = await api.create("Products", { name: "After" });
      expect(created.status).toBe(201);
      expect((await health()).status).toBe(200);
      const names = (
        (await api.list("Products", "filter=name~fore|ter&select=name")).body.data as { name: string }[]
      ).map((r) => r.name);
      expect(names).not.toContain("During");
    });
  },
);
