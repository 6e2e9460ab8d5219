// The limit store on Upstash Redis (or emulators/upstash over a real Redis): scripted-store.ts's
// commands through Upstash's REST API, one HTTP request each.
import type { Redis } from "@upstash/redis";
import { scriptedStore } from "./scripted-store";
import type { LimitStore } from "./store-types";

export function upstashStore(redis: Redis): LimitStore {
  return scriptedStore("upstash", {
    evalsha: (sha, keys, args) => redis.evalsha(sha, keys, args),
    eval: (script, keys, args) => redis.eval(script, keys, args),
    ping: async () => {
      await redis.ping();
    },
    mget: (keys) => redis.mget<unknown[]>(...keys),
    del: async (key) => {
      await redis.del(key);
    },
    setNx: async (key, value, ttlMs) => (await redis.set(key, value, { nx: true, px: ttlMs })) === "OK",
    setEx: async (key, value, ttlSeconds) => {
      await redis.set(key, value, { ex: ttlSeconds });
    },
    hsetExpire: async (key, field, value, ttlSeconds) => {
      const tx = redis.multi();
      tx.hset(key, { [field]: value });
      tx.expire(key, ttlSeconds);
      await tx.exec();
    },
    hdel: async (key, field) => {
      await redis.hdel(key, field);
    },
    sremDel: async (set, member, key) => {
      const tx = redis.multi();
      tx.srem(set, member);
      tx.del(key);
      await tx.exec();
    },
  });
}
