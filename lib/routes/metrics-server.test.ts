// The worker's own GET /metrics: the web route's exposition and token rule on a port of its own.
import type { Server } from "node:http";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

let server: Server;
let base: string;

beforeAll(async () => {
  vi.stubEnv("DATA_DIR", mkdtempSync(join(tmpdir(), "sheetapi-metrics-server-")));
  vi.stubEnv("METRICS_TOKEN", "worker-metrics-token");
  const { serveMetrics } = await import("./metrics-server");
  server = await serveMetrics(0, "127.0.0.1");
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(async () => {
  vi.unstubAllEnvs();
  await new Promise((resolve) => server?.close(resolve));
});

it("answers webhook attempts and failures in Prometheus' text, only with METRICS_TOKEN", async () => {
  const { metrics } = await import("@/lib/observability/metrics");
  metrics.webhookAttempt({ outcome: "failed" });
  metrics.webhookAttempt({ outcome: "delivered" });

  const refused = await fetch(`${base}/metrics`);
  expect(refused.status).toBe(401);
  expect(await refused.json()).toMatchObject({ success: false, error: "unauthorized" });
  expect((await fetch(`${base}/metrics`, { headers: { authorization: "Bearer wrong" } })).status).toBe(401);

  const res = await fetch(`${base}/metrics`, { headers: { authorization: "Bearer worker-metrics-token" } });
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toBe("text/plain; version=0.0.4; charset=utf-8");
  const text = await res.text();
  expect(text).toContain("# TYPE sheetapi_webhook_attempts_total counter");
  expect(text).toMatch(/^sheetapi_webhook_attempts_total\{outcome="failed"\} [1-9]/m);
  expect(text).toMatch(/^sheetapi_webhook_attempts_total\{outcome="delivered"\} [1-9]/m);

  const elsewhere = await fetch(`${base}/health`, { headers: { authorization: "Bearer worker-metrics-token" } });
  expect([elsewhere.status, (await elsewhere.json()).error]).toEqual([404, "not_found"]);
});
