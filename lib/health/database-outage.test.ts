// The real Postgres stopped and started again under the service: what works meanwhile, what
// /health says, and that everything recovers with no usage count lost.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setDatabase, type DatabaseHandle } from "@/db/client";
import { createUser } from "@/db/queries/users";
import { usageByDay } from "@/db/queries/usage";
import { DEMO_SPREADSHEET_ID } from "@/emulators/google/seed";
import { flushUsage } from "@/lib/usage/metering";
import { memoryStore, setLimitStore } from "@/lib/store/store";
import { freshPostgres } from "@/testing/databases";
import { metricNow } from "@/testing/metrics";
import { postgresProcess } from "@/testing/postgres-process";
import { callRoute } from "@/testing/routes";
import { rowsClient } from "@/testing/rows-client";
import { startTestService, type TestService } from "@/testing/service";
import { registeredKey } from "@/testing/google";

const pg = await postgresProcess();
let svc: TestService;
let db: DatabaseHandle;
let api: ReturnType<typeof rowsClient>;
let userId: string;

describe.skipIf(!pg)("database outage (Postgres stopped and started)", () => {
  beforeAll(async () => {
    svc = await startTestService();
    db = await freshPostgres(pg!.url);
    setDatabase(db);
    setLimitStore(memoryStore());
    const user = await createUser({ email: "pg-outage@example.com", plan: "business" });
    userId = user.id;
    api = rowsClient(DEMO_SPREADSHEET_ID, await registeredKey(user, DEMO_SPREADSHEET_ID));
  }, 60_000);
  afterAll(async () => {
    setLimitStore(undefined);
    await pg?.start().catch(() => undefined);
    await db?.close().catch(() => undefined);
    await pg?.dispose();
    await svc?.stop();
  });

  const health = async () => callRoute((await import("@/app/health/route")).GET, { path: "/health", params: {} });
  const ready = async () =>
    callRoute((await import("@/app/health/ready/route")).GET, { path: "/health/ready", params: {} });
  const timed = async <T>(call: () => Promise<T>) => {
    const started = Date.now();
    return { result: await call(), ms: Date.now() - started };
  };

  it("keeps serving cached reads and writes, refuses database-bound requests cleanly, and says so", async () => {
    expect((await api.list("Products")).status).toBe(200);
    expect((await api.create("Products", { name: "Written before the outage" })).status).toBe(201);
    await flushUsage();
    expect((await ready()).body).toMatchObject({ status: "ready" }); // a load balancer's probe, before the cut
    await pg!.stop();

    expect((await api.list("Products")).status).toBe(200); // records and rows from the caches
    // Ids go on from the tab's counter in the limit store; its mark in the database waits.
    expect((await api.create("Products", { name: "Written during the outage" })).status).toBe(201);
    // A tab whose counter the store lost knows no safe next id without the database's mark.
    const { getLimitStore } = await import("@/lib/store/store");
    const { idCounterKey } = await import("@/lib/sheets/write/row-ids");
    await getLimitStore().del(
      idCounterKey(DEMO_SPREADSHEET_ID, svc.google.store.get(DEMO_SPREADSHEET_ID)!.tabs[0]!.sheetId),
    );
    const unsure = await api.create("Products", { name: "Refused during the outage" });
    expect([unsure.status, unsure.body.error]).toEqual([503, "service_unavailable"]);

    const dbErrors = (during: string) => metricNow("sheetapi_database_errors_total", { during });
    const [requestsBefore, batchesBefore] = [dbErrors("request"), dbErrors("batch")];
    const unknown = await timed(() =>
      rowsClient(DEMO_SPREADSHEET_ID, "shk_9999999999999999999999999999999999999Z").list("Products"),
    );
    expect(unknown.result.status).toBe(503);
    expect(unknown.result.body).toMatchObject({ success: false, error: "service_unavailable" });
    expect(unknown.result.headers.get("retry-after")).toBe("5");
    expect(unknown.ms).toBeLessThan(7000);

    const h = await health();
    expect(h.status).toBe(503);
    expect(h.body).toMatchObject({ checks: { database: { status: "down" }, limit_store: { status: "ok" } } });
    const r = await ready();
    expect([r.status, r.body.status, r.body.checks]).toEqual([
      200,
      "degraded",
      { database: "down", limit_store: "ok", sheets_backend: "ok", draining: false },
    ]);
    await flushUsage(); // fails, and keeps its counts
    // Both failures show in /metrics: the request answered 503, the batch that could not be written.
    expect(dbErrors("request")).toBe(requestsBefore + 1);
    expect(dbErrors("batch")).toBeGreaterThan(batchesBefore);
  }, 60_000);

  it("recovers by itself when Postgres is back, losing no usage count", async () => {
    await pg!.start();
    let h = await health();
    for (let i = 0; i < 20 && h.status !== 200; i++) {
      await new Promise((r) => setTimeout(r, 250));
      h = await health();
    }
    expect(h.status).toBe(200);
    expect(
      (await rowsClient(DEMO_SPREADSHEET_ID, "shk_9999999999999999999999999999999999999Z").list("Products")).status,
    ).toBe(401);
    await flushUsage();
    const day = new Date().toISOString().slice(0, 10);
    const counts = Object.fromEntries(
      (await usageByDay({ userId, from: day, to: "9999-12-31" })).map((r) => [r.statusClass, r.count]),
    );
    expect(counts["2xx"]).toBe(4); // the read and write before, the read and the write during the outage
    const names = (
      (await api.list("Products", "select=name", { "Cache-Control": "no-cache" })).body.data as { name: string }[]
    ).map((r) => r.name);
    expect(names.filter((n) => n === "Written during the outage")).toHaveLength(1);
    expect(names).not.toContain("Refused during the outage");
  }, 60_000);
});
