// GET /metrics after real traffic through the rows API: each family an operator watches is there
// and moved (cache and Google reads, Google calls, the quota guard, store failures, requests).
// Webhook and database families: testing/webhook-suite.ts, lib/health/database-outage.test.ts.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createUser } from "@/db/queries/users";
import * as env from "@/lib/env";
import { memoryStore, setLimitStore, upstashStore } from "@/lib/store/store";
import { upstashRedis } from "@/lib/store/upstash-requester";
import { registeredKey } from "@/testing/google";
import { metricValue } from "@/testing/metrics";
import { rowsClient } from "@/testing/rows-client";
import { startTestService, type TestService } from "@/testing/service";

const TOKEN = "metrics-traffic-token";
const CHECK_MS = 200;
const SA = "sheetapi-local@sheetapi-local.iam.gserviceaccount.com";
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
let svc: TestService;
let sheetId: string;
let api: ReturnType<typeof rowsClient>;

beforeAll(async () => {
  svc = await startTestService({
    modifiedTimeLagMs: 0,
    env: { METRICS_TOKEN: TOKEN, CHANGE_CHECK_INTERVAL_MS: String(CHECK_MS), GOOGLE_RETRY_BUDGET_MS: "200" },
  });
  setLimitStore(memoryStore());
  sheetId = String(
    (
      await svc.admin("/spreadsheets", {
        title: "Metrics",
        members: { [SA]: "writer", "owner@example.com": "owner" },
        tabs: [
          {
            title: "Items",
            rows: [
              ["id", "name"],
              [1, "apple"],
            ],
          },
        ],
      })
    ).spreadsheetId,
  );
  const user = await createUser({ email: "metrics-traffic@example.com", plan: "business" });
  api = rowsClient(sheetId, await registeredKey(user, sheetId));
});
afterAll(async () => {
  vi.restoreAllMocks();
  setLimitStore(undefined);
  await svc?.stop();
});

async function scrape(): Promise<string> {
  const { GET } = await import("@/app/metrics/route");
  const res = await GET(new Request("http://x/metrics", { headers: { Authorization: `Bearer ${TOKEN}` } }));
  expect(res.status).toBe(200);
  return res.text();
}

describe("GET /metrics after traffic", () => {
  it("shows reads by cache status, Google calls by method and outcome, quota-guard holds and refusals, store failures and requests", async () => {
    const before = await scrape();
    const moved = (after: string, name: string, labels?: Record<string, string>) =>
      metricValue(after, name, labels) - metricValue(before, name, labels);

    // A cold read (MISS, from Google), a cached one (HIT), then an edit made in the sheet while
    // Google rate-limits reads: the last good copy (STALE).
    expect((await api.list("Items")).headers.get("x-cache")).toBe("MISS");
    expect((await api.list("Items")).headers.get("x-cache")).toBe("HIT");
    await svc.admin(`/spreadsheets/${sheetId}/values`, { range: "'Items'!B2", values: [["pear"]] });
    await sleep(CHECK_MS + 50);
    svc.google.faults.add({ route: "values.get", status: 429, count: -1 });
    expect((await api.list("Items")).headers.get("x-cache")).toBe("STALE");
    svc.google.faults.clear();

    // The quota guard, with a quota of one read a minute: a call finding the window full until
    // 50 ms from now is held for that long; one finding it full for the next minute is refused.
    const { reserveGoogleCall } = await import("@/lib/google/quota");
    const real = env.config();
    vi.spyOn(env, "config").mockReturnValue({
      ...real,
      env: { ...real.env, GOOGLE_QUOTA_PER_IDENTITY_MINUTE: 1, GOOGLE_QUOTA_WAIT_MS: 1_000 },
    });
    const clock = vi.spyOn(Date, "now").mockReturnValue(Date.now() - 59_950);
    await reserveGoogleCall("metrics-test-identity");
    clock.mockRestore();
    await reserveGoogleCall("metrics-test-identity"); // held ~50 ms, then served
    await expect(reserveGoogleCall("metrics-test-identity")).rejects.toMatchObject({ code: "service_unavailable" });
    vi.mocked(env.config).mockRestore();

    // The limit store unreachable: the read is served uncounted, the failure counted.
    setLimitStore(upstashStore(upstashRedis({ url: "http://127.0.0.1:9", token: "t", timeoutMs: 200 })));
    expect((await api.list("Items")).status).toBe(200);
    setLimitStore(memoryStore());

    const after = await scrape();
    // The cold read, and the read without the store (whose cache versions it could not check).
    expect(moved(after, "sheetapi_sheet_reads_total", { cache: "MISS" })).toBeGreaterThanOrEqual(1);
    expect(moved(after, "sheetapi_sheet_reads_total", { cache: "HIT" })).toBe(1);
    expect(moved(after, "sheetapi_sheet_reads_total", { cache: "STALE" })).toBe(1);
    expect(
      moved(after, "sheetapi_google_calls_total", { method: "spreadsheets.values.get", kind: "read", outcome: "ok" }),
    ).toBeGreaterThanOrEqual(1);
    expect(
      moved(after, "sheetapi_google_calls_total", { method: "spreadsheets.values.get", outcome: "rate_limited" }),
    ).toBeGreaterThanOrEqual(1);
    expect(
      moved(after, "sheetapi_google_calls_total", { method: "drive.files.get", outcome: "ok" }),
    ).toBeGreaterThanOrEqual(1);
    expect(moved(after, "sheetapi_google_quota_guard_total", { result: "held", kind: "read" })).toBe(1);
    expect(moved(after, "sheetapi_google_quota_guard_total", { result: "refused", kind: "read" })).toBe(1);
    expect(moved(after, "sheetapi_limit_store_errors_total")).toBeGreaterThanOrEqual(1);
    expect(after).toMatch(/sheetapi_limit_store_errors_total\{operation="[a-z.]+"\} \d+/);
    const route = { route: "/api/v1/{sheetId}/{tabName}", method: "GET" };
    expect(moved(after, "sheetapi_http_requests_total", { ...route, status: "200" })).toBe(4);
    expect(moved(after, "sheetapi_http_request_duration_seconds_count", route)).toBe(4);
    expect(metricValue(after, "sheetapi_http_request_duration_seconds_sum", route)).toBeGreaterThan(
      metricValue(before, "sheetapi_http_request_duration_seconds_sum", route),
    );
    for (const gauge of [
      "sheetapi_webhook_deliveries_pending",
      "sheetapi_webhook_deliveries_failed",
      "sheetapi_webhook_oldest_pending_seconds",
    ])
      expect(after).toMatch(new RegExp(`^${gauge} \\d`, "m"));
  });
});
