// The start's limit-store check against emulators/upstash over the real Redis, and against that
// Redis directly: the right token or address passes, a wrong token, database or address each
// give one line naming the settings to fix.
import { createServer } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startUpstashEmulator, type UpstashEmulator } from "@/emulators/upstash/server";
import { testRedisUrl } from "@/testing/services";
import { limitStoreProblem } from "./store-check";

const redisUrl = await testRedisUrl();
let bridge: UpstashEmulator;

/** A loopback port nothing listens on (taken, then released). */
const closedPort = () =>
  new Promise<number>((resolve) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

describe.skipIf(!redisUrl)("limit store check at start", () => {
  beforeAll(async () => {
    bridge = await startUpstashEmulator({ redisUrl: redisUrl!, token: "right" });
  });
  afterAll(async () => bridge?.stop());

  const upstash = (url: string, token: string) => ({ kind: "upstash" as const, url, token, timeoutMs: 1000 });

  it("passes with the right token, names the fix for a wrong token or an address nothing answers", async () => {
    expect(await limitStoreProblem(upstash(bridge.url, "right"))).toBeUndefined();
    expect(await limitStoreProblem(upstash(bridge.url, "wrong"))).toEqual({
      cause: "refused",
      message: `The limit store at ${bridge.url} refused the token (HTTP 401): check UPSTASH_REDIS_REST_URL and UPSTASH_REDIS_REST_TOKEN (docs/operations.md, Deploy).`,
    });
    const dead = `http://127.0.0.1:${await closedPort()}`;
    expect(await limitStoreProblem(upstash(dead, "right"))).toEqual({
      cause: "unreachable",
      message: `Cannot reach the limit store at ${dead} (ECONNREFUSED): check UPSTASH_REDIS_REST_URL and UPSTASH_REDIS_REST_TOKEN (docs/operations.md, Deploy).`,
    });
    expect(await limitStoreProblem({ kind: "memory" })).toBeUndefined();
  });

  it("passes a reachable Redis, names REDIS_URL for a database Redis refuses or an address nothing answers", async () => {
    const redis = (url: string) => ({ kind: "redis" as const, url, timeoutMs: 1000 });
    expect(await limitStoreProblem(redis(redisUrl!))).toBeUndefined();
    const base = new URL(redisUrl!);
    base.pathname = "/999";
    expect(await limitStoreProblem(redis(base.toString()))).toEqual({
      cause: "refused",
      message: `The limit store at ${base.toString()} refused the connection (ERR DB index is out of range): check REDIS_URL (docs/operations.md, Deploy).`,
    });
    const dead = `redis://user:secret@127.0.0.1:${await closedPort()}`;
    expect(await limitStoreProblem(redis(dead))).toEqual({
      cause: "unreachable",
      message: `Cannot reach the limit store at ${dead.replace("user:secret@", "***@")} (ECONNREFUSED): check REDIS_URL (docs/operations.md, Deploy).`,
    });
  });
});
