// GET /metrics: 404 unless METRICS_TOKEN is set, 401 without it, and then Prometheus' text with
// the requests answered (by route template, method and status, with their durations).
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { route } from "@/lib/routes/route";
import { ApiError } from "@/lib/errors";

beforeAll(() => vi.stubEnv("DATA_DIR", mkdtempSync(join(tmpdir(), "sheetapi-metrics-"))));
afterAll(() => vi.unstubAllEnvs());

describe("GET /metrics", () => {
  it("is off without METRICS_TOKEN, refuses a wrong token, and counts requests by route and status", async () => {
    const { GET } = await import("@/app/metrics/route");
    const { setDatabase } = await import("@/db/client");
    const { freshPglite } = await import("@/testing/databases");
    const db = await freshPglite();
    setDatabase(db);
    const env = await import("@/lib/env");
    const reload = (token?: string) => {
      vi.stubEnv("METRICS_TOKEN", token ?? "");
      vi.spyOn(env, "config").mockReturnValue(env.loadConfig());
    };

    reload();
    expect((await GET(new Request("http://x/metrics"))).status).toBe(404);
    reload("s3cret-token");
    const wrong = await GET(new Request("http://x/metrics", { headers: { Authorization: "Bearer nope" } }));
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toMatchObject({ success: false, error: "unauthorized" });

    const rows = route<{ sheetId: string }>(({ params }) => {
      if (params.sheetId === "missing") throw new ApiError("not_found", "No such sheet.");
      return Response.json({ success: true });
    });
    for (const id of ["a1", "b2", "missing"])
      await rows(new Request(`http://x/api/v1/${id}`), { params: Promise.resolve({ sheetId: id }) });

    const res = await GET(new Request("http://x/metrics", { headers: { Authorization: "Bearer s3cret-token" } }));
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/plain; version=0.0.4");
    const text = await res.text();
    expect(text).toContain('sheetapi_http_requests_total{route="/api/v1/{sheetId}",method="GET",status="200"} 2');
    expect(text).toContain('sheetapi_http_requests_total{route="/api/v1/{sheetId}",method="GET",status="404"} 1');
    expect(text).toMatch(
      /sheetapi_http_request_duration_seconds_count\{route="\/api\/v1\/\{sheetId\}",method="GET"\} 3/,
    );
    expect(text).toMatch(
      /sheetapi_http_request_duration_seconds_bucket\{route="\/api\/v1\/\{sheetId\}",method="GET",le="\+Inf"\} 3/,
    );
    expect(text).toContain("sheetapi_webhook_deliveries_pending 0");
    await db.close();
  });

  it("keeps the number of series bounded when clients ask for paths no route serves", async () => {
    const { metrics, renderMetrics } = await import("@/lib/observability/metrics");
    for (let i = 0; i < 1_500; i++) metrics.request(`/no/such/path/${i}`, "GET", 404, 0.001);
    const series = renderMetrics()
      .split("\n")
      .filter((l) => l.startsWith("sheetapi_http_requests_total{"));
    expect(series.length).toBeLessThanOrEqual(1_001);
    const other = series.find((l) => l.includes('route="(other)"'));
    expect(other).toBeDefined();
    expect(Number(other!.split(" ").at(-1))).toBeGreaterThanOrEqual(500);
  });
});
