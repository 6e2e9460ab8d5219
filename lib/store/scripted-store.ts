// The limit store on any Redis, whatever carries the commands (Upstash's REST API or a Redis
// connection): every operation that must be atomic is one Lua script, so any number of instances
// agree. upstash-store.ts and redis-store.ts only say how each command reaches Redis.
import { createHash } from "node:crypto";
import {
  ADD_TO_LEDGER,
  ALLOCATE,
  AUTHORIZE,
  CONSUME,
  HGETALL,
  HSET_IF_HOLDER,
  INCR,
  LOCK_RELEASE,
  LOCK_RENEW,
  LOCK_TURN,
  PEEK,
  REFUND,
  SEAL_USAGE,
  SET_IF_NEWER,
} from "./lua-scripts";
import { metrics } from "@/lib/observability/metrics";
import type { ConsumeResult, ConsumeSpec, LimitStore, UsageLedger } from "./store-types";

/** The few commands the store sends besides its scripts, each one round trip. */
export interface RedisCommands {
  evalsha(sha: string, keys: string[], args: string[]): Promise<unknown>;
  eval(script: string, keys: string[], args: string[]): Promise<unknown>;
  ping(): Promise<void>;
  /** The stored strings (or values the client already decoded from JSON), null when missing. */
  mget(keys: string[]): Promise<unknown[]>;
  del(key: string): Promise<void>;
  /** SET NX PX: true when this call stored it. */
  setNx(key: string, value: string, ttlMs: number): Promise<boolean>;
  /** SET EX. */
  setEx(key: string, value: string, ttlSeconds: number): Promise<void>;
  /** HSET and EXPIRE in one transaction. */
  hsetExpire(key: string, field: string, value: string, ttlSeconds: number): Promise<void>;
  hdel(key: string, field: string): Promise<void>;
  /** SREM and DEL in one transaction. */
  sremDel(set: string, member: string, key: string): Promise<void>;
}

/** The ledger of one database's usage, and the set of its sealed batches. */
const ledgerKey = (scope: string) => `sheetapi:usage:${scope}:ledger`;
const sealedKey = (scope: string) => `sheetapi:usage:${scope}:sealed`;

const consumeArgs = (spec: ConsumeSpec) => ({
  keys: [spec.burst.key, ...spec.counters.map((c) => c.key)],
  args: [
    spec.now,
    spec.member,
    spec.burst.limit,
    spec.burst.windowMs,
    ...spec.counters.flatMap((c) => [c.limit, c.expireAt]),
  ].map(String),
});

const toConsumeResult = ([exceeded, oldest, ...used]: number[]): ConsumeResult => ({
  exceeded: exceeded!,
  used,
  oldestBurst: oldest! < 0 ? null : oldest!,
});

/**
 * A stored JSON value: a string is decoded here unless the client decoded it already, by the
 * Upstash client's own rule (a number that would not print back the same stays a string).
 */
function decoded(value: unknown): unknown {
  if (typeof value !== "string") return value;
  try {
    const parsed: unknown = JSON.parse(value);
    return typeof parsed === "number" && String(parsed) !== value ? value : parsed;
  } catch {
    return value;
  }
}

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

export function scriptedStore(kind: "upstash" | "redis", redis: RedisCommands): LimitStore {
  return countingFailures(scriptedOperations(kind, redis));
}

function scriptedOperations(kind: "upstash" | "redis", redis: RedisCommands): LimitStore {
  const run = async (script: string, keys: string[], args: string[]): Promise<unknown> => {
    try {
      return await redis.evalsha(shaOf(script), keys, args);
    } catch (err) {
      if (err instanceof Error && /\bNOSCRIPT\b/.test(err.message)) return redis.eval(script, keys, args);
      throw err;
    }
  };
  const hgetall = async <T>(key: string) => {
    // Through a script: the flat reply reads the same through every client.
    const flat = (await run(HGETALL, [key], [])) as unknown[];
    const out: Record<string, T> = {};
    for (let i = 0; i + 1 < flat.length; i += 2) out[String(flat[i])] = decoded(flat[i + 1]) as T;
    return out;
  };
  const ledger: UsageLedger = {
    add: async (scope, { counts, latest }) => {
      await run(
        ADD_TO_LEDGER,
        [ledgerKey(scope)],
        [String(counts.length), ...counts.flat().map(String), ...latest.flat().map(String)],
      );
    },
    seal: async (scope, batchId) =>
      (
        (await run(SEAL_USAGE, [ledgerKey(scope), sealedKey(scope), `${ledgerKey(scope)}:${batchId}`], [])) as unknown[]
      ).map(String),
    batch: (id) => hgetall<number>(id),
    drop: (scope, id) => redis.sremDel(sealedKey(scope), id, id),
  };
  return {
    kind,
    ledger,
    ping: () => redis.ping(),
    mget: async <T>(keys: string[]) =>
      keys.length ? ((await redis.mget(keys)).map((v) => decoded(v) ?? null) as (T | null)[]) : [],
    setIfNewer: async (key, value, ttlSeconds) => {
      await run(SET_IF_NEWER, [key], [JSON.stringify(value), String(value.v), String(ttlSeconds)]);
    },
    del: (key) => redis.del(key),
    // In milliseconds: a claim may last less than a second (a change-check interval).
    putIfAbsent: (key, value, ttlSeconds) =>
      redis.setNx(key, JSON.stringify(value), Math.max(1, Math.round(ttlSeconds * 1000))),
    put: (key, value, ttlSeconds) => redis.setEx(key, JSON.stringify(value), ttlSeconds),
    incr: async (key, ttlSeconds) => Number(await run(INCR, [key], [String(ttlSeconds)])),
    allocate: async (key, floor, count, ttlSeconds) =>
      Number(await run(ALLOCATE, [key], [String(floor), String(count), String(ttlSeconds)])),
    hset: (key, field, value, ttlSeconds) => redis.hsetExpire(key, field, JSON.stringify(value), ttlSeconds),
    hdel: (key, field) => redis.hdel(key, field),
    hgetall,
    lockTurn: async (key, token, ticket, leaseMs, aliveMs) => {
      const [held, ahead, mine] = (await run(
        LOCK_TURN,
        lockKeys(key),
        [token, ticket, leaseMs, aliveMs, Date.now()].map(String),
      )) as number[];
      return { held: held === 1, ahead: ahead!, ticket: Number(mine) };
    },
    renewLock: async (key, token, leaseMs) => Number(await run(LOCK_RENEW, [key], [token, String(leaseMs)])) === 1,
    releaseLock: async (key, token) => {
      await run(LOCK_RELEASE, lockKeys(key).slice(0, 3), [token]);
    },
    hsetIfHolder: async (lockKey, token, key, field, value, ttlSeconds) =>
      Number(await run(HSET_IF_HOLDER, [lockKey, key], [token, field, JSON.stringify(value), String(ttlSeconds)])) ===
      1,
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
      const out = (await run(
        AUTHORIZE,
        [...reads, ...keys],
        [String(reads.length), expect.sheetId, expect.userId, ...args],
      )) as unknown[];
      const values = reads.map((_, i) => decoded(out[i + 1]) ?? null);
      return { values, consumed: out[0] === 1 ? toConsumeResult(out.slice(reads.length + 1) as number[]) : null };
    },
    refund: async (spec) => {
      await run(REFUND, consumeArgs(spec).keys, [spec.member]);
    },
  };
}
