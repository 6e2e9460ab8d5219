// The limit store on Upstash Redis (or emulators/upstash over a real Redis): every operation that
// must be atomic is one Lua script, so any number of instances agree.
import type { Redis } from "@upstash/redis";
import { ALLOCATE, AUTHORIZE, CONSUME, HGETALL, INCR, PEEK, REFUND, SET_IF_NEWER, UNLOCK } from "./lua-scripts";
import type { ConsumeResult, ConsumeSpec, LimitStore } from "./store";

const consumeArgs = (spec: ConsumeSpec) => ({
  keys: [spec.burst.key, ...spec.counters.map((c) => c.key)],
  args: [spec.now, spec.member, spec.burst.limit, spec.burst.windowMs, ...spec.counters.flatMap((c) => [c.limit, c.expireAt])].map(String),
});

const toConsumeResult = ([exceeded, oldest, ...used]: number[]): ConsumeResult => ({
  exceeded: exceeded!,
  used,
  oldestBurst: oldest! < 0 ? null : oldest!,
});

export function upstashStore(redis: Redis): LimitStore {
  return {
    kind: "upstash",
    ping: async () => {
      await redis.ping();
    },
    mget: async <T>(keys: string[]) => (keys.length ? await redis.mget<(T | null)[]>(...keys) : []),
    setIfNewer: async (key, value, ttlSeconds) => {
      await redis.eval(SET_IF_NEWER, [key], [JSON.stringify(value), String(value.v), String(ttlSeconds)]);
    },
    del: async (key) => {
      await redis.del(key);
    },
    putIfAbsent: async (key, value, ttlSeconds) => (await redis.set(key, JSON.stringify(value), { nx: true, ex: ttlSeconds })) === "OK",
    put: async (key, value, ttlSeconds) => {
      await redis.set(key, JSON.stringify(value), { ex: ttlSeconds });
    },
    incr: async (key, ttlSeconds) => Number(await redis.eval(INCR, [key], [String(ttlSeconds)])),
    allocate: async (key, floor, count, ttlSeconds) =>
      Number(await redis.eval(ALLOCATE, [key], [String(floor), String(count), String(ttlSeconds)])),
    hset: async (key, field, value, ttlSeconds) => {
      const tx = redis.multi();
      tx.hset(key, { [field]: JSON.stringify(value) });
      tx.expire(key, ttlSeconds);
      await tx.exec();
    },
    hdel: async (key, field) => {
      await redis.hdel(key, field);
    },
    hgetall: async <T>(key: string) => {
      // Through a script: the flat reply is read the same by Upstash and by the bridge's ioredis.
      const flat = (await redis.eval(HGETALL, [key], [])) as string[];
      const out: Record<string, T> = {};
      for (let i = 0; i + 1 < flat.length; i += 2) out[flat[i]!] = (typeof flat[i + 1] === "string" ? JSON.parse(flat[i + 1]!) : flat[i + 1]) as T;
      return out;
    },
    tryLock: async (key, token, ttlMs) => (await redis.set(key, token, { nx: true, px: ttlMs })) === "OK",
    unlock: async (key, token) => {
      await redis.eval(UNLOCK, [key], [token]);
    },
    consume: async (spec) => {
      const { keys, args } = consumeArgs(spec);
      return toConsumeResult((await redis.eval(CONSUME, keys, args)) as number[]);
    },
    peek: async (spec) => {
      const { keys } = consumeArgs(spec);
      return toConsumeResult((await redis.eval(PEEK, keys, [String(spec.now), String(spec.burst.windowMs)])) as number[]);
    },
    authorize: async (reads, expect, spec) => {
      const { keys, args } = consumeArgs(spec);
      const out = (await redis.eval(AUTHORIZE, [...reads, ...keys], [String(reads.length), expect.sheetId, expect.userId, ...args])) as unknown[];
      const values = reads.map((_, i) => out[i + 1] ?? null);
      return { values, consumed: out[0] === 1 ? toConsumeResult(out.slice(reads.length + 1) as number[]) : null };
    },
    refund: async (spec) => {
      await redis.eval(REFUND, consumeArgs(spec).keys, [spec.member]);
    },
  };
}
