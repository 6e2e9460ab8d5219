// compose.yaml runs the service on Postgres and Redis as they are: the limit store is reached
// directly (REDIS_URL), with no bridge of the project's own in between.
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { loadConfig } from "@/lib/env";

interface Service {
  image?: string;
  command?: string[];
  environment?: Record<string, string>;
  depends_on?: Record<string, { condition: string }>;
  profiles?: string[];
}
const compose = parse(readFileSync(join(import.meta.dirname, "..", "compose.yaml"), "utf8"), { merge: true }) as {
  services: Record<string, Service>;
};
const services = compose.services;

describe("compose.yaml", () => {
  it("runs Postgres, Redis and the service, with no Upstash bridge", () => {
    const always = Object.keys(services).filter((name) => !services[name]!.profiles);
    expect(always.sort()).toEqual(["migrate", "postgres", "redis", "web", "worker"]);
    expect(JSON.stringify(services)).not.toMatch(/emulators\/upstash|8079/);
    expect(services.migrate!.depends_on).toMatchObject({
      postgres: { condition: "service_healthy" },
      redis: { condition: "service_healthy" },
    });
  });

  it("points every process at compose's Redis, and lib/env.ts picks the plain Redis store from it", () => {
    for (const name of ["migrate", "web", "worker"]) {
      const env = services[name]!.environment!;
      expect(env.REDIS_URL).toBe("redis://redis:6379");
      // An Upstash setting left in .env would win; compose clears them.
      expect([env.UPSTASH_REDIS_REST_URL, env.UPSTASH_REDIS_REST_TOKEN]).toEqual(["", ""]);
      // As configured there, apart from production's other settings (which come from .env).
      expect(
        loadConfig({ ...env, NODE_ENV: "development", DATA_DIR: mkdtempSync(join(tmpdir(), "sheetapi-compose-")) })
          .limitStore,
      ).toEqual({ kind: "redis", url: "redis://redis:6379", timeoutMs: 1000 });
    }
  });
});
