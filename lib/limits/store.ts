// The limit store: Upstash Redis (or emulators/upstash over a real Redis) in production, process
// memory on embedded defaults. Everything that must agree across instances lives here: key and
// sheet records (revocation), and later limits, id counters and cache versions.
import { Redis } from "@upstash/redis";
import { config } from "@/lib/env";

/** A cached record: `v` is the source row's version; a lower version never replaces a higher one. */
export interface Versioned {
  v: number;
}

export interface LimitStore {
  kind: "memory" | "upstash";
  ping(): Promise<void>;
  /** Several JSON values in one round trip; null for a missing key. */
  mget<T>(keys: string[]): Promise<(T | null)[]>;
  /** Stores `value` unless the stored copy has a version at least as high. */
  setIfNewer(key: string, value: Versioned, ttlSeconds: number): Promise<void>;
  del(key: string): Promise<void>;
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
  };
}

/** One instance's store: the same answers as Redis, for embedded mode and tests. */
export function memoryStore(now: () => number = Date.now): LimitStore {
  const entries = new Map<string, { json: string; expiresAt: number }>();
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
