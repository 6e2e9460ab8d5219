// The cron and metrics routes' refusals, word for word: 404 while their token is unset (as for a
// path no route serves), 401 without the token; the handler is not reached.
import { afterEach, describe, expect, it, vi } from "vitest";
import * as env from "@/lib/env";

afterEach(() => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});

const withEnv = (vars: Record<string, string>) => {
  for (const [name, value] of Object.entries(vars)) vi.stubEnv(name, value);
  vi.spyOn(env, "config").mockReturnValue(env.loadConfig());
};

async function refusal(path: "/cron/sweeps" | "/cron/webhooks" | "/metrics", bearer?: string) {
  const mod =
    path === "/metrics"
      ? await import("@/app/metrics/route")
      : path === "/cron/sweeps"
        ? await import("@/app/cron/sweeps/route")
        : await import("@/app/cron/webhooks/route");
  const res = await mod.GET(
    new Request(`http://x${path}`, { headers: bearer ? { Authorization: `Bearer ${bearer}` } : {} }),
  );
  const { error, message } = (await res.json()) as { error: string; message: string };
  return { status: res.status, error, message };
}

describe("operator-token routes", () => {
  it("answers 404 while CRON_SECRET or METRICS_TOKEN is unset", async () => {
    withEnv({ CRON_SECRET: "", METRICS_TOKEN: "" });
    expect(await refusal("/cron/sweeps", "x")).toEqual({
      status: 404,
      error: "not_found",
      message: "No route GET /cron/sweeps. See GET /api for the routes.",
    });
    expect(await refusal("/cron/webhooks")).toEqual({
      status: 404,
      error: "not_found",
      message: "No route GET /cron/webhooks. See GET /api for the routes.",
    });
    expect(await refusal("/metrics", "x")).toEqual({
      status: 404,
      error: "not_found",
      message: "No route GET /metrics. See GET /api for the routes.",
    });
  });

  it("answers 401 without the token, or with another", async () => {
    withEnv({ CRON_SECRET: "cron-secret-for-tests", METRICS_TOKEN: "metrics-token-for-tests" });
    expect(await refusal("/cron/sweeps")).toEqual({
      status: 401,
      error: "unauthorized",
      message: "/cron/sweeps needs Authorization: Bearer <CRON_SECRET>.",
    });
    expect(await refusal("/cron/webhooks", "metrics-token-for-tests")).toEqual({
      status: 401,
      error: "unauthorized",
      message: "/cron/webhooks needs Authorization: Bearer <CRON_SECRET>.",
    });
    expect(await refusal("/metrics", "cron-secret-for-tests")).toEqual({
      status: 401,
      error: "unauthorized",
      message: "GET /metrics needs Authorization: Bearer <METRICS_TOKEN>.",
    });
  });
});
