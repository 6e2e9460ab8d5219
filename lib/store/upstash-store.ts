// The limit store on Upstash Redis (or emulators/upstash over a real Redis): every operation that
// must be atomic is one Lua script, so any number of instances agree.
import { createHash } from "node:crypto";
import type { Redis } from "@upstash/redis";
import { ADD_TO_LEDGER, ALLOCATE, AUTHORIZE, CONSUME, HGETALL, HSET_IF_HOLDER, INCR, LOCK_RELEASE, LOCK_RENEW, LOCK_TURN, PEEK, REFUND, SEAL_USAGE, SET_IF_NEWER } from "./lua-scripts";
import { metrics } from "@/lib/observability/metrics";
import type { ConsumeResult, ConsumeSpec, LimitStore, UsageLedger } from "./store-types";

/** The ledger of one database's usage, and the set of its sealed batches. */
const ledgerKey = (scope: string) => `sheetapi:usage:${scope}:ledger`;
const sealedKey = (scope: string) => `sheetapi:usage:${scope}:sealed`;

const consumeArgs = (spec: ConsumeSpec) => ({
  keys: [spec.burst.key, ...spec.counters.map((c) => c.key)],
  args: [spec.now, spec.member, spec.burst.limit, spec.burst.windowMs, ...spec.counters.flatMap((c) => [c.limit, c.expireAt])].map(String),
});

const toConsumeResult = ([exceeded, oldest, ...used]: number[]): ConsumeResult => ({
  exceeded: exceeded!,
  used,
  oldestBurst: oldest! < 0 ? null : oldest!,
});

/** A lock's keys: its holder, its queue of waiters, their signs of life, its ticket counter. */
const lockKeys = (key: string) => [key, `${key}:queue`, `${key}:alive`, `${key}:tickets`];

// Scripts run by their SHA-1 (EVALSHA): a request carries 40 characters instead of the script,
// and neither Redis nor a proxy in front of it reads and hashes the script on every call. A Redis
// that does not hold the script yet (new, restarted, flushed) answers NOSCRIPT; the script itself
// goes once, and Redis keeps it from then on.
const shas = new Map<string, string>();
function shaOf(script: string): string {
  let sha = shas.get(script);
  if (!sha) shas.set(script, (sha = createHash("sha1").update(script).digest("hex")));
  return sha;
}

/**
 * Counts every call that fails or times out in the metrics, by the store operation it was
 * (`ledger.add`, `authorize`, ...): one place sees them all, whichever caller then degrades.
 */
function countingFailures<T extends object>(target: T, prefix = ""): T {
  const out = { ...target } as Record<string, unknown>;
  for (const [name, value] of Object.entries(target)) {
    if (typeof value === "function") {
      out[name] = (...args: unknown[]) =>
        (value as (...a: unknown[]) => Promise<unknown>).apply(target, args).catch((err: unknown) => {
          metrics.storeError({ operation: `${prefix}${name}` });
          throw err;
        });
    } else if (value && typeof value === "object") out[name] = countingFailures(value, `${prefix}${name}.`);
  }
  return out as T;
}

export function upstashStore(redis: Redis): LimitStore {
  return countingFailures(upstashOperations(redis));
}

function upstashOperations(redis: Redis): LimitStore {
  const run = async (script: string, keys: string[], args: string[]): Promise<unknown> => {
    try {
      return await redis.evalsha(shaOf(script), keys, args);
    } catch (err) {
      if (err instanceof Error && /\bNOSCRIPT\b/.test(err.message)) return redis.eval(script, keys, args);
      throw err;
    }
  };
  const hgetall = async <T>(key: string) => {
    // Through a script: the flat reply is read the same by Upstash and by the bridge's ioredis.
    const flat = (await run(HGETALL, [key], [])) as string[];
    const out: Record<string, T> = {};
    for (let i = 0; i + 1 < flat.length; i += 2) out[flat[i]!] = (typeof flat[i + 1] === "string" ? JSON.parse(flat[i + 1]!) : flat[i + 1]) as T;
    return out;
  };
  const ledger: UsageLedger = {
    add: async (scope, { counts, latest }) => {
      await run(ADD_TO_LEDGER, [ledgerKey(scope)], [String(counts.length), ...counts.flat().map(String), ...latest.flat().map(String)]);
    },
    seal: async (scope, batchId) => (await run(SEAL_USAGE, [ledgerKey(scope), sealedKey(scope), `${ledgerKey(scope)}:${batchId}`], [])) as string[],
    batch: (id) => hgetall<number>(id),
    drop: async (scope, id) => {
      const tx = redis.multi();
      tx.srem(sealedKey(scope), id);
      tx.del(id);
      await tx.exec();
    },
  };
  return {
    kind: "upstash",
    ledger,
    ping: async () => {
      await redis.ping();
    },
    mget: async <T>(keys: string[]) => (keys.length ? await redis.mget<(T | null)[]>(...keys) : []),
    setIfNewer: async (key, value, ttlSeconds) => {
      await run(SET_IF_NEWER, [key], [JSON.stringify(value), String(value.v), String(ttlSeconds)]);
    },
    del: async (key) => {
      await redis.del(key);
    },
    // In milliseconds: a claim may last less than a second (a change-check interval).
    putIfAbsent: async (key, value, ttlSeconds) => (await redis.set(key, JSON.stringify(value), { nx: true, px: Math.max(1, Math.round(ttlSeconds * 1000)) })) === "OK",
    put: async (key, value, ttlSeconds) => {
      await redis.set(key, JSON.stringify(value), { ex: ttlSeconds });
    },
    incr: async (key, ttlSeconds) => Number(await run(INCR, [key], [String(ttlSeconds)])),
    allocate: async (key, floor, count, ttlSeconds) =>
      Number(await run(ALLOCATE, [key], [String(floor), String(count), String(ttlSeconds)])),
    hset: async (key, field, value, ttlSeconds) => {
      const tx = redis.multi();
      tx.hset(key, { [field]: JSON.stringify(value) });
      tx.expire(key, ttlSeconds);
      await tx.exec();
    },
    hdel: async (key, field) => {
      await redis.hdel(key, field);
    },
    hgetall,
    lockTurn: async (key, token, ticket, leaseMs, aliveMs) => {
      const [held, ahead, mine] = (await run(LOCK_TURN, lockKeys(key), [token, ticket, leaseMs, aliveMs, Date.now()].map(String))) as number[];
      return { held: held === 1, ahead: ahead!, ticket: Number(mine) };
    },
    renewLock: async (key, token, leaseMs) => Number(await run(LOCK_RENEW, [key], [token, String(leaseMs)])) === 1,
    releaseLock: async (key, token) => {
      await run(LOCK_RELEASE, lockKeys(key).slice(0, 3), [token]);
    },
    hsetIfHolder: async (lockKey, token, key, field, value, ttlSeconds) =>
      Number(await run(HSET_IF_HOLDER, [lockKey, key], [token, field, JSON.stringify(value), String(ttlSeconds)])) === 1,
    consume: async (spec) => {
      const { keys, args } = consumeArgs(spec);
      return toConsumeResult((await run(CONSUME, keys, args)) as number[]);
    },
    peek: async (spec) => {
      const { keys } = consumeArgs(spec);
      return toConsumeResult((await run(PEEK, keys, [String(spec.now), String(spec.burst.windowMs)])) as number[]);
    },
    authorize: async (reads, expect, spec) => {
      const { keys, args } = consumeArgs(spec);
      const out = (await run(AUTHORIZE, [...reads, ...keys], [String(reads.length), expect.sheetId, expect.userId, ...args])) as unknown[];
      const values = reads.map((_, i) => out[i + 1] ?? null);
      return { values, consumed: out[0] === 1 ? toConsumeResult(out.slice(reads.length + 1) as number[]) : null };
    },
    refund: async (spec) => {
      await run(REFUND, consumeArgs(spec).keys, [spec.member]);
    },
  };
}
