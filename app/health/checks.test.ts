// /health with each dependency down: 503, naming what is down, in the envelope.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startGoogleEmulator, type GoogleEmulator } from "@/emulators/google/server";

let google: GoogleEmulator;

beforeAll(async () => {
  google = await startGoogleEmulator();
  vi.stubEnv("DATA_DIR", mkdtempSync(join(tmpdir(), "sheetapi-health-")));
  vi.stubEnv("GOOGLE_API_ROOT_URL", google.url);
  // The database is the PGlite each test sets, whatever the environment's DATABASE_URL says.
  vi.stubEnv("DATABASE_URL", "");
  // Nothing listens on port 1: the limit store is down.
  vi.stubEnv("UPSTASH_REDIS_REST_URL", "http://127.0.0.1:1");
  vi.stubEnv("UPSTASH_REDIS_REST_TOKEN", "t");
});
afterAll(async () => {
  vi.unstubAllEnvs();
  await google?.stop();
});

describe("GET /health", () => {
  it("is public in the spec's shape: what runs per component and whether it answers, no figures, no address", async () => {
    const { GET } = await import("@/app/health/route");
    const { setDatabase } = await import("@/db/client");
    const { memoryStore, setLimitStore } = await import("@/lib/store/store");
    const { freshPglite } = await import("@/testing/databases");
    const db = await freshPglite();
    setDatabase(db);
    setLimitStore(memoryStore());
    try {
      const res = await GET(new Request("http://x/health"));
      const text = await res.text();
      const body = JSON.parse(text);
      expect(res.status).toBe(200);
      expect(Object.keys(body).sort()).toEqual(["checks", "status", "success"]);
      expect(body.status).toBe("ok");
      expect(Object.keys(body.checks).sort()).toEqual(["database", "limit_store", "sheets_backend"]);
      expect(body.checks).toMatchObject({
        database: { status: "ok", kind: "pglite" },
        limit_store: { status: "ok", kind: "memory" },
        sheets_backend: { status: "ok", kind: "emulator" },
      });
      for (const check of Object.values(body.checks))
        expect(Object.keys(check as object).sort()).toEqual(["detail", "kind", "latency_ms", "status"]);
      expect(text).not.toContain(google.url);
      expect(text).not.toMatch(/embedded"|webhooks|recent_calls|pending/);
    } finally {
      setLimitStore(undefined);
      await db.close();
    }
  }, 90_000);

  it("answers 503 naming the limit store, then the sheets backend too once Google stops", async () => {
    const { GET } = await import("@/app/health/route");
    const { setDatabase } = await import("@/db/client");
    const { freshPglite } = await import("@/testing/databases");
    const db = await freshPglite();
    setDatabase(db);

    let res = await GET(new Request("http://x/health"));
    let body = await res.json();
    expect(res.status).toBe(503);
    expect(body).toMatchObject({
      success: false,
      error: "service_unavailable",
      message:
        "Unavailable: limit_store down. Without the limit store, reads are served uncounted and writes are paused until it is back.",
    });
    expect(body.checks.database.status).toBe("ok");
    expect(body.checks.sheets_backend.status).toBe("ok");

    await google.stop();
    res = await GET(new Request("http://x/health"));
    body = await res.json();
    expect(body.message).toBe(
      "Unavailable: limit_store, sheets_backend down. Without the limit store, reads are served uncounted and writes are paused until it is back.",
    );
    expect(res.headers.get("retry-after")).toBe("5");
    await db.close();
  });
});
