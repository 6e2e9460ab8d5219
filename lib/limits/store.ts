// The limit store: Upstash Redis (or emulators/upstash over a real Redis) in production, process
// memory on embedded defaults. Everything that must agree across instances lives here: key and
// sheet records (revocation), and later limits, id counters and cache versions.
import { Redis } from "@upstash/redis";
import { config } from "@/lib/env";

/** A cached record: `v` is the source row's version; a lower version never replaces a higher one. */
export interface Versioned {
  v: number;
}

/** One request against an account's windows: a sliding burst set and fixed-window counters. */
export interface ConsumeSpec {
  now: number;
  /** Unique per request: its entry in the burst window, removed again on a refund. */
  member: string;
  burst: { key: string; limit: number; windowMs: number };
  counters: { key: string; limit: number; expireAt: number }[];
}

export interface ConsumeResult {
  /** -1 when counted; else the window that is full (0 = burst, 1.. = counters), nothing counted. */
  exceeded: number;
  /** Use of each window (burst first) after this request, or as found when refused. */
  used: number[];
  /** Oldest entry of the burst window, Unix ms (when the next burst slot frees). */
  oldestBurst: number | null;
}

export interface LimitStore {
  kind: "memory" | "upstash";
  ping(): Promise<void>;
  /** Several JSON values in one round trip; null for a missing key. */
  mget<T>(keys: string[]): Promise<(T | null)[]>;
  /** Stores `value` unless the stored copy has a version at least as high. */
  setIfNewer(key: string, value: Versioned, ttlSeconds: number): Promise<void>;
  del(key: string): Promise<void>;
  /** Adds 1 and returns the new value (a missing key counts from 0). */
  incr(key: string, ttlSeconds: number): Promise<number>;
  /**
   * Hands out `count` consecutive integers above max(stored, floor), atomically: returns the
   * last one. Concurrent callers on any instance never get the same number.
   */
  allocate(key: string, floor: number, count: number, ttlSeconds: number): Promise<number>;
  /** Takes a lock if it is free: true when `token` now holds it for `ttlMs`. */
  tryLock(key: string, token: string, ttlMs: number): Promise<boolean>;
  /** Releases a lock only if `token` still holds it. */
  unlock(key: string, token: string): Promise<void>;
  /** Checks every window and counts in all of them only if none is full, atomically. */
  consume(spec: ConsumeSpec): Promise<ConsumeResult>;
  /** Gives a counted request back (its answer was a 5xx). */
  refund(spec: ConsumeSpec): Promise<void>;
}

// KEYS[1] = key; ARGV = json, version, ttl. Compares versions inside Redis, atomically.
const SET_IF_NEWER = `
local current = redis.call('GET', KEYS[1])
if current then
  local ok, decoded = pcall(cjson.decode, current)
  if ok and type(decoded) == 'table' and tonumber(decoded.v) and tonumber(decoded.v) >= tonumber(ARGV[2]) then
    return 0
  end
end
redis.call('SET', KEYS[1], ARGV[1], 'EX', tonumber(ARGV[3]))
return 1`;

const ALLOCATE = `
local current = tonumber(redis.call('GET', KEYS[1]) or '0')
local floor = tonumber(ARGV[1])
if current < floor then current = floor end
local last = current + tonumber(ARGV[2])
redis.call('SET', KEYS[1], last, 'EX', tonumber(ARGV[3]))
return last`;

const UNLOCK = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`;

const INCR = `
local value = redis.call('INCR', KEYS[1])
redis.call('EXPIRE', KEYS[1], tonumber(ARGV[1]))
return value`;

// KEYS: burst set, then counters. ARGV: now, member, burst limit, burst window, then limit and
// expiry (Unix ms) per counter. Returns exceeded index (-1 = counted), uses, oldest burst entry.
const CONSUME = `
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[4])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
local used = { redis.call('ZCARD', KEYS[1]) }
local exceeded = -1
if used[1] >= tonumber(ARGV[3]) then exceeded = 0 end
for i = 2, #KEYS do
  used[i] = tonumber(redis.call('GET', KEYS[i]) or '0')
  if exceeded < 0 and used[i] >= tonumber(ARGV[3 + 2 * (i - 1)]) then exceeded = i - 1 end
end
if exceeded < 0 then
  redis.call('ZADD', KEYS[1], now, ARGV[2])
  redis.call('PEXPIRE', KEYS[1], window)
  used[1] = used[1] + 1
  for i = 2, #KEYS do
    used[i] = redis.call('INCR', KEYS[i])
    redis.call('PEXPIREAT', KEYS[i], tonumber(ARGV[4 + 2 * (i - 1)]))
  end
end
local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
local result = { exceeded, tonumber(oldest[2] or '-1') }
for i = 1, #used do result[#result + 1] = used[i] end
return result`;

const REFUND = `
redis.call('ZREM', KEYS[1], ARGV[1])
for i = 2, #KEYS do
  if tonumber(redis.call('GET', KEYS[i]) or '0') > 0 then redis.call('DECR', KEYS[i]) end
end
return 1`;

const consumeArgs = (spec: ConsumeSpec) => ({
  keys: [spec.burst.key, ...spec.counters.map((c) => c.key)],
  args: [spec.now, spec.member, spec.burst.limit, spec.burst.windowMs, ...spec.counters.flatMap((c) => [c.limit, c.expireAt])].map(String),
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
    incr: async (key, ttlSeconds) => Number(await redis.eval(INCR, [key], [String(ttlSeconds)])),
    allocate: async (key, floor, count, ttlSeconds) =>
      Number(await redis.eval(ALLOCATE, [key], [String(floor), String(count), String(ttlSeconds)])),
    tryLock: async (key, token, ttlMs) => (await redis.set(key, token, { nx: true, px: ttlMs })) === "OK",
    unlock: async (key, token) => {
      await redis.eval(UNLOCK, [key], [token]);
    },
    consume: async (spec) => {
      const { keys, args } = consumeArgs(spec);
      const [exceeded, oldest, ...used] = (await redis.eval(CONSUME, keys, args)) as number[];
      return { exceeded: exceeded!, used, oldestBurst: oldest! < 0 ? null : oldest! };
    },
    refund: async (spec) => {
      await redis.eval(REFUND, consumeArgs(spec).keys, [spec.member]);
    },
  };
}

/** One instance's store: the same answers as Redis, for embedded mode and tests. */
export function memoryStore(now: () => number = Date.now): LimitStore {
  const entries = new Map<string, { json: string; expiresAt: number }>();
  // Each burst window is a time-ordered queue: expired entries leave from the front, so a
  // check costs nothing per entry however many the window holds.
  const bursts = new Map<string, { at: number[]; member: string[]; head: number }>();
  const burstOf = (key: string, from: number) => {
    let b = bursts.get(key);
    if (!b) bursts.set(key, (b = { at: [], member: [], head: 0 }));
    while (b.head < b.at.length && b.at[b.head]! <= from) b.head++;
    if (b.head > 1024 && b.head * 2 > b.at.length) {
      b.at = b.at.slice(b.head);
      b.member = b.member.slice(b.head);
      b.head = 0;
    }
    return b;
  };
  const read = (key: string) => {
    const entry = entries.get(key);
    if (!entry) return null;
    if (entry.expiresAt <= now()) {
      entries.delete(key);
      return null;
    }
    return JSON.parse(entry.json) as unknown;
  };
  return {
    kind: "memory",
    ping: async () => {},
    mget: async <T>(keys: string[]) => keys.map((k) => read(k) as T | null),
    setIfNewer: async (key, value, ttlSeconds) => {
      const current = read(key) as Partial<Versioned> | null;
      if (current && typeof current.v === "number" && current.v >= value.v) return;
      entries.set(key, { json: JSON.stringify(value), expiresAt: now() + ttlSeconds * 1000 });
    },
    del: async (key) => {
      entries.delete(key);
    },
    incr: async (key, ttlSeconds) => {
      const value = Number(read(key) ?? 0) + 1;
      entries.set(key, { json: JSON.stringify(value), expiresAt: now() + ttlSeconds * 1000 });
      return value;
    },
    allocate: async (key, floor, count, ttlSeconds) => {
      const last = Math.max(Number(read(key) ?? 0), floor) + count;
      entries.set(key, { json: JSON.stringify(last), expiresAt: now() + ttlSeconds * 1000 });
      return last;
    },
    tryLock: async (key, token, ttlMs) => {
      if (read(key) !== null) return false;
      entries.set(key, { json: JSON.stringify(token), expiresAt: now() + ttlMs });
      return true;
    },
    unlock: async (key, token) => {
      if (read(key) === token) entries.delete(key);
    },
    // The same algorithm as the Lua script; one process, so plain code is atomic.
    consume: async (spec) => {
      const burst = burstOf(spec.burst.key, spec.now - spec.burst.windowMs);
      const used = [burst.at.length - burst.head, ...spec.counters.map((c) => Number(read(c.key) ?? 0))];
      let exceeded = used[0]! >= spec.burst.limit ? 0 : -1;
      spec.counters.forEach((c, i) => {
        if (exceeded < 0 && used[i + 1]! >= c.limit) exceeded = i + 1;
      });
      if (exceeded < 0) {
        // Kept in time order even if a caller's clock steps back a little.
        let i = burst.at.length;
        while (i > burst.head && burst.at[i - 1]! > spec.now) i--;
        burst.at.splice(i, 0, spec.now);
        burst.member.splice(i, 0, spec.member);
        used[0]! += 1;
        spec.counters.forEach((c, i) => {
          used[i + 1] = used[i + 1]! + 1;
          entries.set(c.key, { json: JSON.stringify(used[i + 1]), expiresAt: c.expireAt });
        });
      }
      return { exceeded, used, oldestBurst: burst.head < burst.at.length ? burst.at[burst.head]! : null };
    },
    refund: async (spec) => {
      const burst = bursts.get(spec.burst.key);
      const i = burst ? burst.member.indexOf(spec.member, burst.head) : -1;
      if (burst && i >= 0) {
        burst.at.splice(i, 1);
        burst.member.splice(i, 1);
      }
      for (const c of spec.counters) {
        const value = Number(read(c.key) ?? 0);
        if (value > 0) entries.set(c.key, { json: JSON.stringify(value - 1), expiresAt: c.expireAt });
      }
    },
  };
}

function buildStore(): LimitStore {
  const target = config().limitStore;
  if (target.kind === "memory") return memoryStore();
  return upstashStore(
    new Redis({
      url: target.url,
      token: target.token,
      // One bounded attempt per call (DECISIONS 18a): no retries, aborted after the timeout.
      retry: false,
      signal: () => AbortSignal.timeout(target.timeoutMs),
      enableTelemetry: false,
    }),
  );
}

const globalRef = globalThis as typeof globalThis & { __sheetapiLimitStore?: LimitStore };

export function getLimitStore(): LimitStore {
  globalRef.__sheetapiLimitStore ??= buildStore();
  return globalRef.__sheetapiLimitStore;
}

/** Replaces the process's store (tests). */
export function setLimitStore(store: LimitStore | undefined): void {
  globalRef.__sheetapiLimitStore = store;
}
