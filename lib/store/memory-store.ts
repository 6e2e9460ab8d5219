// The limit store in process memory (embedded defaults, tests): the same answers as the Lua
// scripts give on Redis, for one instance.
import { keepSnapshot, loadSnapshot, type StoreSnapshot } from "./memory-snapshot";
import type { ConsumeResult, ConsumeSpec, LimitStore, Versioned } from "./store-types";

/** A record the authorize script may count against: present, not revoked, of this sheet and account. */
function qualifies(record: unknown, expect: { sheetId: string; userId: string }): boolean {
  const k = record as { revoked?: unknown; sheetId?: unknown; userId?: unknown } | null;
  return (
    !!k && typeof k === "object" && k.revoked === false && k.sheetId === expect.sheetId && k.userId === expect.userId
  );
}

/**
 * A stored value as Redis would give it back (a JSON copy, so later changes to the caller's
 * object do not reach the store), frozen: every read hands out the same object, parsed once
 * when written rather than on each read, and a caller changing it fails loudly.
 */
function stored(value: unknown): unknown {
  return typeof value === "object" && value !== null ? deepFreeze(JSON.parse(JSON.stringify(value))) : value;
}

function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null) {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}

// The calls made in one turn of the event loop, answered together at the start of the next.
let waiting: (() => void)[] = [];
const nextTurn = () =>
  new Promise<void>((resolve) => {
    if (!waiting.length)
      setImmediate(() => {
        const turn = waiting;
        waiting = [];
        for (const answer of turn) answer();
      });
    waiting.push(resolve);
  });

/**
 * Every call answered on the next turn of the event loop, the calls of one turn together, as the
 * Upstash requester sends them in one pipeline (lib/store/upstash-requester.ts). Under load the
 * requests that reach their limit check in one turn then go on together: on embedded defaults a
 * server answers about a third more cached reads per second this way than when each request runs
 * to its end before the next is read (bench/RESULTS.md, "The embedded store answers on the next
 * turn"). Each call's own work still runs in one piece, so the store stays atomic.
 */
function answeredNextTurn(store: LimitStore): LimitStore {
  const deferred: Record<string, unknown> = { ...store };
  for (const [name, call] of Object.entries(store)) {
    if (typeof call !== "function") continue;
    deferred[name] = async (...args: unknown[]) => {
      await nextTurn();
      return (call as (...a: unknown[]) => unknown)(...args);
    };
  }
  return deferred as unknown as LimitStore;
}

/**
 * One instance's store: the same answers as Redis, for embedded mode and tests. `file`: kept on
 * disk there across restarts (lib/store/memory-snapshot.ts), as the embedded server does.
 */
export function memoryStore(now: () => number = Date.now, { file }: { file?: string } = {}): LimitStore {
  const entries = new Map<string, { value: unknown; expiresAt: number }>();
  // Moves with every change a snapshot would hold.
  let changes = 0;
  const put = (key: string, value: unknown, expiresAt: number) => {
    changes++;
    entries.set(key, { value: stored(value), expiresAt });
  };
  const remove = (key: string) => {
    changes++;
    entries.delete(key);
  };
  // Each burst window is a time-ordered queue: expired entries leave from the front, so a
  // check costs nothing per entry however many the window holds. Only the times are kept: Redis
  // needs each request's member to tell entries apart, but one process counts, and a refund
  // removes an entry of its request's time, which leaves the same counts. (Keeping a string per
  // request for the window's minute would grow the old generation the collector has to mark.)
  const bursts = new Map<string, { at: number[]; head: number }>();
  const burstOf = (key: string, from: number) => {
    let b = bursts.get(key);
    if (!b) bursts.set(key, (b = { at: [], head: 0 }));
    while (b.head < b.at.length && b.at[b.head]! <= from) b.head++;
    if (b.head > 1024 && b.head * 2 > b.at.length) {
      b.at = b.at.slice(b.head);
      b.head = 0;
    }
    return b;
  };
  // Fair locks: the holder and its lease, the waiters by ticket with their last sign of life.
  const locks = new Map<
    string,
    {
      holder?: { token: string; until: number };
      queue: Map<string, { ticket: number; alive: number }>;
      tickets: number;
    }
  >();
  const holderOf = (key: string) => {
    const holder = locks.get(key)?.holder;
    return holder && holder.until > now() ? holder : undefined;
  };
  const read = (key: string) => {
    const entry = entries.get(key);
    if (!entry) return null;
    if (entry.expiresAt <= now()) {
      entries.delete(key);
      return null;
    }
    return entry.value;
  };
  const setField = (key: string, field: string, value: object, ttlSeconds: number) => {
    const hash = { ...((read(key) ?? {}) as Record<string, unknown>), [field]: value };
    put(key, hash, now() + ttlSeconds * 1000);
  };
  // The same algorithm as the Lua script; one process, so plain code is atomic.
  const consume = (spec: ConsumeSpec): ConsumeResult => {
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
      if (i === burst.at.length) burst.at.push(spec.now);
      else burst.at.splice(i, 0, spec.now);
      used[0]! += 1;
      spec.counters.forEach((c, i) => {
        used[i + 1] = used[i + 1]! + 1;
        put(c.key, used[i + 1], c.expireAt);
      });
    }
    return { exceeded, used, oldestBurst: burst.head < burst.at.length ? burst.at[burst.head]! : null };
  };
  if (file) {
    const saved = loadSnapshot(file);
    const t = now();
    for (const [key, value, expiresAt] of saved.entries)
      if (expiresAt > t) entries.set(key, { value: stored(value), expiresAt });
    const snapshot = (): StoreSnapshot => {
      const at = now();
      return {
        entries: [...entries].filter(([, e]) => e.expiresAt > at).map(([key, e]) => [key, e.value, e.expiresAt]),
      };
    };
    keepSnapshot(file, () => changes, snapshot);
  }
  return answeredNextTurn({
    kind: "memory",
    ping: async () => {},
    mget: async <T>(keys: string[]) => keys.map((k) => read(k) as T | null),
    setIfNewer: async (key, value, ttlSeconds) => {
      const current = read(key) as Partial<Versioned> | null;
      if (current && typeof current.v === "number" && current.v >= value.v) return;
      put(key, value, now() + ttlSeconds * 1000);
    },
    del: async (key) => remove(key),
    putIfAbsent: async (key, value, ttlSeconds) => {
      if (read(key) !== null) return false;
      put(key, value, now() + ttlSeconds * 1000);
      return true;
    },
    put: async (key, value, ttlSeconds) => {
      put(key, value, now() + ttlSeconds * 1000);
    },
    incr: async (key, ttlSeconds) => {
      const value = Number(read(key) ?? 0) + 1;
      put(key, value, now() + ttlSeconds * 1000);
      return value;
    },
    allocate: async (key, floor, count, ttlSeconds) => {
      const last = Math.max(Number(read(key) ?? 0), floor) + count;
      put(key, last, now() + ttlSeconds * 1000);
      return last;
    },
    hset: async (key, field, value, ttlSeconds) => setField(key, field, value, ttlSeconds),
    hdel: async (key, field) => {
      const current = read(key) as Record<string, unknown> | null;
      if (!current || !Object.hasOwn(current, field)) return;
      const hash = { ...current };
      delete hash[field];
      if (Object.keys(hash).length) put(key, hash, entries.get(key)!.expiresAt);
      else remove(key);
    },
    hgetall: async <T>(key: string) => ({ ...((read(key) ?? {}) as Record<string, T>) }),
    lockTurn: async (key, token, ticket, leaseMs, aliveMs) => {
      const t = now();
      const lock = locks.get(key) ?? { queue: new Map<string, { ticket: number; alive: number }>(), tickets: 0 };
      locks.set(key, lock);
      if (lock.holder && lock.holder.until <= t) lock.holder = undefined;
      if (lock.holder?.token === token) {
        lock.holder.until = t + leaseMs;
        return { held: true, ahead: 0, ticket };
      }
      let mine = lock.queue.get(token);
      if (!mine) lock.queue.set(token, (mine = { ticket: ticket > 0 ? ticket : ++lock.tickets, alive: 0 }));
      mine.alive = t + aliveMs;
      let ahead = 0;
      for (const [other, w] of lock.queue) {
        if (w.alive < t) lock.queue.delete(other);
        else if (w.ticket < mine.ticket || (w.ticket === mine.ticket && other < token)) ahead++;
      }
      if (lock.holder || ahead > 0) return { held: false, ahead, ticket: mine.ticket };
      lock.queue.delete(token);
      lock.holder = { token, until: t + leaseMs };
      return { held: true, ahead: 0, ticket: mine.ticket };
    },
    renewLock: async (key, token, leaseMs) => {
      const holder = holderOf(key);
      if (holder?.token !== token) return false;
      holder.until = now() + leaseMs;
      return true;
    },
    releaseLock: async (key, token) => {
      const lock = locks.get(key);
      if (!lock) return;
      if (lock.holder?.token === token) lock.holder = undefined;
      lock.queue.delete(token);
      if (!lock.holder && lock.queue.size === 0) locks.delete(key);
    },
    hsetIfHolder: async (lockKey, token, key, field, value, ttlSeconds) => {
      if (holderOf(lockKey)?.token !== token) return false;
      setField(key, field, value, ttlSeconds);
      return true;
    },
    consume: async (spec) => consume(spec),
    peek: async (spec) => {
      const burst = burstOf(spec.burst.key, spec.now - spec.burst.windowMs);
      return {
        exceeded: -1,
        used: [burst.at.length - burst.head, ...spec.counters.map((c) => Number(read(c.key) ?? 0))],
        oldestBurst: burst.head < burst.at.length ? burst.at[burst.head]! : null,
      };
    },
    authorize: async (reads, expect, spec) => {
      const values = reads.map(read);
      return { values, consumed: qualifies(values[0], expect) ? consume(spec) : null };
    },
    refund: async (spec) => {
      const burst = bursts.get(spec.burst.key);
      const i = burst ? burst.at.lastIndexOf(spec.now) : -1;
      if (burst && i >= burst.head) burst.at.splice(i, 1);
      for (const c of spec.counters) {
        const value = Number(read(c.key) ?? 0);
        if (value > 0) put(c.key, value - 1, c.expireAt);
      }
    },
  });
}
