// Fair shares of this process's delivery slots: a slow or hanging receiver holds each slot for up
// to WEBHOOK_TIMEOUT_MS, so an endpoint drains at most PER_ENDPOINT streams at once and an account
// at most PER_ACCOUNT; a stream over its share waits here (not counted as an attempt) and is woken
// when one of its share's slots frees. A crash forgets who waits: the start-up sweep finds them.
import { perProcess } from "@/lib/per-process";
import { errorFields, log } from "@/lib/log";
import { queueOpen, wakeStreams, type StreamRef } from "./queue";

export const PER_ENDPOINT = 5;
export const PER_ACCOUNT = 10;

interface Share {
  held: number;
  /** Streams that found the share full, oldest first (keyed so a stream waits once). */
  waiting: Map<string, StreamRef>;
}

const state = perProcess("webhooks:shares", () => ({
  shares: new Map<string, Share>(),
  timer: undefined as NodeJS.Timeout | undefined,
}));
const shares = state.shares;
/** How often shares with room wake who waits, besides each release (a woken stream may not take its slot). */
const RECHECK_MS = 2000;

const capOf = (key: string) => (key.startsWith("endpoint ") ? PER_ENDPOINT : PER_ACCOUNT);

const share = (key: string): Share => {
  let found = shares.get(key);
  if (!found) shares.set(key, (found = { held: 0, waiting: new Map() }));
  return found;
};

/** Wakes as many waiting streams of the share as it has room for; forgets a share nobody holds or waits for. */
function wakeWaiting(key: string, s: Share): StreamRef[] {
  const woken: StreamRef[] = [];
  for (const [id, ref] of s.waiting) {
    if (woken.length >= capOf(key) - s.held) break;
    s.waiting.delete(id);
    woken.push(ref);
  }
  if (!s.held && !s.waiting.size) shares.delete(key);
  return woken;
}

/** Wakes streams that waited; once the queue is stopped they are left to the start-up sweep (it would otherwise open again). */
const wake = (refs: StreamRef[]) => {
  if (refs.length && queueOpen())
    void wakeStreams(refs).catch((err: unknown) =>
      log.warn({ ...errorFields(err) }, "webhooks: waiting streams could not be woken"),
    );
};

function recheck(): void {
  if (!queueOpen()) shares.forEach((s) => s.waiting.clear());
  wake([...shares].flatMap(([key, s]) => wakeWaiting(key, s)));
  if (!shares.size && state.timer) {
    clearInterval(state.timer);
    state.timer = undefined;
  }
}

/**
 * Takes a slot of the endpoint's share and of its account's, or, when either is full, records the
 * stream as waiting for it and answers undefined. The answer releases both slots and wakes
 * streams waiting for them.
 */
export function takeShare(accountId: string, ref: StreamRef): (() => void) | undefined {
  const keys = [`endpoint ${ref.endpointId}`, `account ${accountId}`] as const;
  const full = keys.find((key) => share(key).held >= capOf(key));
  if (full) {
    share(full).waiting.set(`${ref.endpointId} ${ref.stream}`, ref);
    state.timer ??= setInterval(recheck, RECHECK_MS).unref();
    return undefined;
  }
  for (const key of keys) share(key).held++;
  let released = false;
  return () => {
    if (released) return;
    released = true;
    wake(
      keys.flatMap((key) => {
        const s = share(key);
        s.held--;
        return wakeWaiting(key, s);
      }),
    );
  };
}

/** Slots held and streams waiting in a share (`endpoint <id>` or `account <id>`). */
export const shareState = (key: string) => ({
  held: shares.get(key)?.held ?? 0,
  waiting: shares.get(key)?.waiting.size ?? 0,
});
