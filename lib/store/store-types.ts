// The limit store's shape, apart from any store: the implementations (memory-store.ts, and
// scripted-store.ts through upstash-store.ts or redis-store.ts) take it from here, and store.ts
// picks one of them for the process.

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

/** What one request (or one count outside a request) adds to the ledger, applied all at once. */
export interface LedgerEntry {
  /** Counters to add to (usage, sheet stats): field and amount. */
  counts: [field: string, n: number][];
  /** Stamps that keep the latest time they are given (a key's last use): field and Unix ms. */
  latest: [field: string, at: number][];
}

/**
 * Usage counts, sheet stats and last-use stamps kept where they survive the process (a kill -9
 * loses none): each answer adds its entry before it is sent; lib/usage/usage-ledger.ts rolls
 * sealed batches up into Postgres.
 */
export interface UsageLedger {
  /** Adds one entry (fields: lib/usage/ledger-fields.ts) to the ledger of the database `scope`, atomically. */
  add(scope: string, entry: LedgerEntry): Promise<void>;
  /** Moves what the ledger of `scope` holds into a new batch `batchId`; answers every batch of `scope` not yet dropped. */
  seal(scope: string, batchId: string): Promise<string[]>;
  /** A sealed batch's counters. */
  batch(id: string): Promise<Record<string, number>>;
  /** Forgets a batch of `scope` once it is rolled up. */
  drop(scope: string, id: string): Promise<void>;
}

export interface LimitStore {
  kind: "memory" | "upstash" | "redis";
  /** Shared and durable stores only: the in-process store keeps usage in the process's batch. */
  ledger?: UsageLedger;
  ping(): Promise<void>;
  /** Several JSON values in one round trip; null for a missing key. */
  mget<T>(keys: string[]): Promise<(T | null)[]>;
  /** Stores `value` unless the stored copy has a version at least as high. */
  setIfNewer(key: string, value: Versioned, ttlSeconds: number): Promise<void>;
  del(key: string): Promise<void>;
  /** Stores a JSON value only if the key is free: true when this call stored it. `ttlSeconds` may be a fraction. */
  putIfAbsent(key: string, value: object, ttlSeconds: number): Promise<boolean>;
  /** Stores a JSON value, replacing any. */
  put(key: string, value: object, ttlSeconds: number): Promise<void>;
  /** Adds 1 and returns the new value (a missing key counts from 0). */
  incr(key: string, ttlSeconds: number): Promise<number>;
  /**
   * Hands out `count` consecutive integers above max(stored, floor), atomically: returns the
   * last one. Concurrent callers on any instance never get the same number.
   */
  allocate(key: string, floor: number, count: number, ttlSeconds: number): Promise<number>;
  /** Sets one field of a hash to a JSON value; the hash expires `ttlSeconds` after its last change. */
  hset(key: string, field: string, value: object, ttlSeconds: number): Promise<void>;
  /** Removes one field of a hash. */
  hdel(key: string, field: string): Promise<void>;
  /** Every field of a hash (empty when there is none). */
  hgetall<T>(key: string): Promise<Record<string, T>>;
  /**
   * A fair lock's turn (lib/store/lock.ts): joins the lock's queue with a new ticket (`ticket`
   * 0) or keeps its place, marks the waiter alive for `aliveMs` (waiters that stop asking are
   * dropped), and takes the lock for `leaseMs` when it is free and this waiter is first.
   */
  lockTurn(key: string, token: string, ticket: number, leaseMs: number, aliveMs: number): Promise<LockTurn>;
  /** Extends the lease: false when `token` no longer holds the lock. */
  renewLock(key: string, token: string, leaseMs: number): Promise<boolean>;
  /** Releases the lock if `token` holds it, and leaves its queue. */
  releaseLock(key: string, token: string): Promise<void>;
  /** Sets one field of a hash (like hset) only while `token` holds the lock `lockKey`: true when set. */
  hsetIfHolder(
    lockKey: string,
    token: string,
    key: string,
    field: string,
    value: object,
    ttlSeconds: number,
  ): Promise<boolean>;
  /** Checks every window and counts in all of them only if none is full, atomically. */
  consume(spec: ConsumeSpec): Promise<ConsumeResult>;
  /** Gives a counted request back (its answer was a 5xx). */
  refund(spec: ConsumeSpec): Promise<void>;
  /** Each window's use as it stands, counting nothing (usage reports). */
  peek(spec: ConsumeSpec): Promise<ConsumeResult>;
  /**
   * The hot path in one round trip: reads `reads` (the key record first) and, only when that
   * record is a usable key of `expect.sheetId` and `expect.userId`, consumes `spec`.
   */
  authorize(reads: string[], expect: { sheetId: string; userId: string }, spec: ConsumeSpec): Promise<AuthorizeResult>;
}

export interface LockTurn {
  held: boolean;
  /** Waiters before this one in the queue (the holder not counted). */
  ahead: number;
  /** This waiter's place: pass it back on the next turn. */
  ticket: number;
}

export interface AuthorizeResult {
  values: unknown[];
  /** Null when the key record did not qualify: nothing was counted. */
  consumed: ConsumeResult | null;
}
