// @upstash/redis and @upstash/ratelimit, unchanged, through emulators/upstash to the real Redis.
import { Ratelimit } from "@upstash/ratelimit";
import { Redis } from "@upstash/redis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testRedisUrl } from "@/testing/services";
import { rewriteScript } from "./lua";
import { startUpstashEmulator, type UpstashEmulator } from "./server";

const redisUrl = await testRedisUrl();
const prefix = `test:${process.pid}:${Date.now()}`;

describe("rewriteScript", () => {
  it("drops flags Redis 7.0 does not know and keeps the script", () => {
    expect(rewriteScript("#!lua flags=allow-key-locking\nreturn 1")).toBe("return 1");
    expect(rewriteScript("#!lua flags=allow-key-locking,no-writes\nreturn 1")).toBe("#!lua flags=no-writes\nreturn 1");
    expect(rewriteScript("return 1")).toBe("return 1");
  });
});

describe.skipIf(!redisUrl)("emulators/upstash over the real Redis", () => {
  let emulator: UpstashEmulator;
  let redis: Redis;

  beforeAll(async () => {
    emulator = await startUpstashEmulator({ redisUrl, token: "test-token" });
    redis = new Redis({ url: emulator.url, token: "test-token", retry: false });
  });
  afterAll(() => emulator.stop());

  it("runs single commands, base64-encoded strings included", async () => {
    await redis.set(`${prefix}:greeting`, "aGVsbG8=");
    expect(await redis.get(`${prefix}:greeting`)).toBe("aGVsbG8=");
    await redis.set(`${prefix}:json`, { a: 1, s: "ünï" });
    expect(await redis.get(`${prefix}:json`)).toEqual({ a: 1, s: "ünï" });
    expect(await redis.incr(`${prefix}:n`)).toBe(1);
  });

  it("runs pipelines and transactions", async () => {
    const p = redis.pipeline();
    p.set(`${prefix}:p`, "1");
    p.incr(`${prefix}:p`);
    p.get(`${prefix}:p`);
    expect(await p.exec()).toEqual(["OK", 2, 2]);
    const m = redis.multi();
    m.incr(`${prefix}:m`);
    m.incr(`${prefix}:m`);
    expect(await m.exec()).toEqual([1, 2]);
  });

  it("answers errors in Upstash's shape", async () => {
    await redis.set(`${prefix}:s`, "text");
    await expect(redis.incr(`${prefix}:s`)).rejects.toThrow(/not an integer/);
    const wrong = await fetch(emulator.url, { method: "POST", headers: { authorization: "Bearer nope" }, body: "[]" });
    expect(wrong.status).toBe(401);
  });

  it("lets @upstash/ratelimit's scripts run on Redis 7.0: exactly the limit passes", async () => {
    const limiter = new Ratelimit({
      redis,
      limiter: Ratelimit.slidingWindow(5, "60 s"),
      prefix: `${prefix}:rl`,
      ephemeralCache: false,
    });
    const results = await Promise.all(Array.from({ length: 12 }, () => limiter.limit("account-1")));
    expect(results.filter((r) => r.success)).toHaveLength(5);
    expect(results.every((r) => r.limit === 5)).toBe(true);
    // A second round uses EVALSHA with the script the bridge already mapped.
    const again = await limiter.limit("account-1");
    expect(again.success).toBe(false);
    expect(again.remaining).toBe(0);
  });
});
