// /health/ready and /health/live: readiness stays 200 (degraded, the body says why) while the
// limit store is down or the database it reached is lost, and answers 503 when the database was
// never reached or has no schema, or the instance is stopping.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

beforeAll(() => {
  vi.stubEnv("DATA_DIR", mkdtempSync(join(tmpdir(), "sheetapi-ready-")));
  // Nothing listens on port 1: the limit store is down.
  vi.stubEnv("UPSTASH_REDIS_REST_URL", "http://127.0.0.1:1");
  vi.stubEnv("UPSTASH_REDIS_REST_TOKEN", "t");
});
afterAll(() => vi.unstubAllEnvs());

describe("GET /health/ready and /health/live", () => {
  it("is ready but degraded without the limit store or a database it reached, not ready without one it never reached or while stopping", async () => {
    const { GET: ready } = await import("@/app/health/ready/route");
    const { GET: live } = await import("@/app/health/live/route");
    const { openDatabase, setDatabase } = await import("@/db/client");
    const { freshPglite } = await import("@/testing/databases");
    const db = await freshPglite();
    setDatabase(db);

    let res = await ready(new Request("http://x/health/ready"));
    let body = await res.json();
    expect(res.status).toBe(200);
    expect(body).toMatchObject({
      success: true,
      status: "degraded",
      checks: { database: "ok", limit_store: "down", draining: false },
    });
    expect(body.message).toContain("limit store down");

    // Nothing listens on port 1: a database this instance never reached.
    const unreachable = openDatabase({ kind: "postgres", url: "postgres://postgres@127.0.0.1:1/none" });
    setDatabase(unreachable);
    res = await ready(new Request("http://x/health/ready"));
    body = await res.json();
    expect(res.status).toBe(503);
    expect(body).toMatchObject({
      success: false,
      error: "service_unavailable",
      status: "not_ready",
      checks: { database: "down" },
    });
    expect(res.headers.get("retry-after")).toBe("5");
    // The process itself still answers: liveness does not depend on the database.
    expect((await live(new Request("http://x/health/live"))).status).toBe(200);
    await unreachable.close();

    // A database that answered: ready. Its schema gone (migrations not run): nothing to serve.
    // Then lost: the instance still serves what it holds.
    const lost = await freshPglite();
    setDatabase(lost);
    expect((await ready(new Request("http://x/health/ready"))).status).toBe(200);
    await lost.db.execute(sql`drop table users cascade`);
    res = await ready(new Request("http://x/health/ready"));
    body = await res.json();
    expect([res.status, body.status, body.checks.database]).toEqual([503, "not_ready", "no_schema"]);
    expect(body.message).toContain("npm run db:migrate");
    await lost.close();
    res = await ready(new Request("http://x/health/ready"));
    body = await res.json();
    expect(res.status).toBe(200);
    expect(body).toMatchObject({ success: true, status: "degraded", checks: { database: "down", draining: false } });
    expect(body.message).toContain("cached reads and writes go on");

    setDatabase(db);
    const { drainRequests } = await import("@/lib/lifecycle/drain");
    expect(await drainRequests(0)).toBe(0);
    res = await ready(new Request("http://x/health/ready"));
    body = await res.json();
    expect(res.status).toBe(503);
    expect(body).toMatchObject({ status: "not_ready", checks: { database: "ok", draining: true } });
    expect(body.message).toContain("this instance is stopping");
    await db.close();
  }, 120_000);
});
