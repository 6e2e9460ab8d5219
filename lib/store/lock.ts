// A fair lock in the limit store, held by one request on any instance: the writes of a tab take
// turns in the order they arrived, so a row number read under the lock still points at the same
// row when written. Tickets, leases, polling by position and fencing: README.md.
import { AsyncLocalStorage } from "node:async_hooks";
import { randomUUID } from "node:crypto";
import { ApiError } from "@/lib/errors";
import { perProcess } from "@/lib/per-process";
import { getLimitStore, writesPaused } from "./store";

const LEASE_MS = 15_000;
const ALIVE_MS = 5_000;
const NEXT_POLL_MS = 10;
const NEXT_POLL_MAX_MS = 250;
const POLL_MAX_MS = 1_000;

export interface HeldLock {
  key: string;
  token: string;
}

const state = perProcess("fair-locks", () => ({
  held: new AsyncLocalStorage<HeldLock>(),
  // This process's waiters per lock, by ticket: a release here wakes the first of them.
  waiters: new Map<string, Map<string, { ticket: number; wake: () => void }>>(),
}));

/** The lock the current async context holds (the innermost), if any. */
export const heldLock = (): HeldLock | undefined => state.held.getStore();

/** Waits `ms`, or less if a holder in this process releases `key` and this waiter is its next. */
function nap(key: string, token: string, ticket: number, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const waiters = state.waiters.get(key) ?? new Map<string, { ticket: number; wake: () => void }>();
    state.waiters.set(key, waiters);
    const wake = () => {
      clearTimeout(timer);
      waiters.delete(token);
      if (!waiters.size) state.waiters.delete(key);
      resolve();
    };
    const timer = setTimeout(wake, ms * (0.75 + Math.random() / 2));
    waiters.set(token, { ticket, wake });
  });
}

function wakeNext(key: string): void {
  let next: { ticket: number; wake: () => void } | undefined;
  for (const w of state.waiters.get(key)?.values() ?? []) if (!next || w.ticket < next.ticket) next = w;
  next?.wake();
}

/** How long a waiter sleeps between turns: short when it is next, longer the further back it is. */
function pollDelay(ahead: number, nextSinceMs: number): number {
  if (ahead === 0) return Math.min(NEXT_POLL_MAX_MS, Math.max(NEXT_POLL_MS, nextSinceMs / 4));
  return Math.min(POLL_MAX_MS, NEXT_POLL_MS * (1 + 2 * ahead));
}

export async function withLock<T>(
  key: string,
  work: () => Promise<T>,
  { waitMs = 20_000, leaseMs = LEASE_MS } = {},
): Promise<T> {
  const store = getLimitStore();
  const token = randomUUID();
  const deadline = Date.now() + waitMs;
  let ticket = 0;
  let nextSince: number | undefined;
  for (;;) {
    let turn;
    try {
      turn = await store.lockTurn(key, token, ticket, leaseMs, ALIVE_MS);
    } catch {
      // Writes fail closed without the store (DECISIONS 18a).
      await store.releaseLock(key, token).catch(() => undefined);
      throw writesPaused();
    }
    if (turn.held) break;
    ticket = turn.ticket;
    if (Date.now() >= deadline) {
      await store.releaseLock(key, token).catch(() => undefined);
      throw new ApiError(
        "service_unavailable",
        "This tab is busy with other writes; retry shortly.",
        {},
        { "Retry-After": "2" },
      );
    }
    if (turn.ahead === 0) nextSince ??= Date.now();
    await nap(
      key,
      token,
      ticket,
      Math.min(pollDelay(turn.ahead, Date.now() - (nextSince ?? Date.now())), Math.max(1, deadline - Date.now())),
    );
  }
  // Renewed while the work goes on; should the lease run out all the same (a stalled process),
  // the fencing described above stops any further write of this holder.
  const renewal = setInterval(() => void store.renewLock(key, token, leaseMs).catch(() => false), leaseMs / 3);
  renewal.unref();
  try {
    return await state.held.run({ key, token }, work);
  } finally {
    clearInterval(renewal);
    await store.releaseLock(key, token).catch(() => undefined);
    wakeNext(key);
  }
}
