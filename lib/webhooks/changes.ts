// Change events: each re-read of a tab is compared with the copy its events were last produced
// from (tab_snapshots), and API writes record their own change, so no event is produced twice.
// How the copy moves (and only forward): README.md ("Change events").
import { createHash, randomBytes } from "node:crypto";
import {
  countSheetEvents,
  insertChangeEvents,
  isSheetTracked,
  lockTabSnapshot,
  saveTabSnapshot,
  tabSnapshotContent,
  trackSheet,
} from "@/db/queries/change-events";
import { inTransaction, type Executor } from "@/db/queries/transaction";
import { insertDeliveries } from "@/db/queries/webhook-deliveries";
import { listEnabledEndpoints } from "@/db/queries/webhook-endpoints";
import type { NewWebhookDelivery } from "@/db/schema";
import { errorFields, log } from "@/lib/log";
import { metrics } from "@/lib/observability/metrics";
import { perProcess } from "@/lib/per-process";
import type { JsonValue, TabData, TabRow } from "@/lib/sheets/values/rows";
import { storableJson, withoutNul } from "@/lib/sheets/values/storable";
import { copyOf, diffCopies, type Change, type TabCopy } from "./diff";
import { wakeStreams, type StreamRef } from "./queue";

export type EventSource = "api" | "sheet";

const TRACKING_CACHE_MS = 5_000;
const DIGEST_MEMO_MS = 60_000;
/** Stored copies this process keeps parsed (the most recently observed tabs). */
const KEPT_COPIES = 16;
const state = perProcess("webhooks:changes", () => ({
  tracked: new Map<string, { on: boolean; at: number }>(),
  /**
   * The stored copy per tab as this process last wrote or read it, with its digest: an unchanged
   * re-read costs no query, and a change is compared with this copy instead of the stored text
   * being read and parsed again, as long as the stored digest is still this one.
   */
  copies: new Map<string, { digest: string; at: number; copy: TabCopy }>(),
  /** Observations of one tab run one after another in this process. */
  chains: new Map<string, Promise<unknown>>(),
}));

function keepCopy(key: string, digest: string, copy: TabCopy): void {
  state.copies.delete(key);
  state.copies.set(key, { digest, at: Date.now(), copy });
  if (state.copies.size > KEPT_COPIES) state.copies.delete(state.copies.keys().next().value!);
}

/** A copy as observed: the object, its stored text and the text's digest. */
interface Seen {
  copy: TabCopy;
  content: string;
  digest: string;
}

function seenOf(copy: TabCopy): Seen {
  const content = JSON.stringify(copy);
  return { copy, content, digest: digestOf(content) };
}

const tabKey = (sheetId: string, tab: string) => `${sheetId}\u0000${tab}`;

/** Whether the sheet's changes become events (it has an endpoint, or a client polled its events). */
export async function isTracked(sheetId: string): Promise<boolean> {
  const known = state.tracked.get(sheetId);
  if (known && Date.now() - known.at < TRACKING_CACHE_MS) return known.on;
  const on = await isSheetTracked({ sheetId });
  if (state.tracked.size > 10_000) state.tracked.clear();
  state.tracked.set(sheetId, { on, at: Date.now() });
  return on;
}

/** From now on the sheet's changes become events (its tabs' next reads are the starting copies). */
export async function startTracking(sheetId: string): Promise<void> {
  await trackSheet({ sheetId });
  state.tracked.set(sheetId, { on: true, at: Date.now() });
}

export const digestOf = (content: string) => createHash("sha1").update(content).digest("base64url");
export const newEventId = () => `msg_${randomBytes(16).toString("base64url")}`;

/** Runs the tab's observations in order, in this process. */
function inTurn<T>(sheetId: string, tab: string, work: () => Promise<T>): Promise<T> {
  const key = tabKey(sheetId, tab);
  const run = (state.chains.get(key) ?? Promise.resolve()).catch(() => undefined).then(work);
  state.chains.set(key, run);
  void run.finally(() => state.chains.get(key) === run && state.chains.delete(key)).catch(() => undefined);
  return run;
}

/**
 * A re-read of a tab (tab-cache): its differences from the stored copy become "sheet" events.
 * `startedAt`: when the read began. Never throws: a failure is logged and the next read retries.
 */
export async function noteTabRead(sheetId: string, data: TabData, startedAt: number): Promise<void> {
  try {
    if (!(await isTracked(sheetId))) return;
    const seen = seenOf(copyOf(data));
    const kept = state.copies.get(tabKey(sheetId, data.tab));
    if (kept?.digest === seen.digest && Date.now() - kept.at < DIGEST_MEMO_MS) return;
    await inTurn(sheetId, data.tab, () => observe(sheetId, data.tab, seen, new Date(startedAt), undefined));
  } catch (err) {
    failed(sheetId, data.tab, err, "webhooks: change detection failed; the tab's events wait for its next read");
  }
}

/** What an API write changed; bulk writes (filtered, by key, upserts) name several rows. */
export type ApiWrite = {
  created?: Record<string, JsonValue>[];
  updated?: TabRow | TabRow[];
  deleted?: TabRow | TabRow[];
};
const listOf = <T>(x: T | T[] | undefined): T[] => (x === undefined ? [] : Array.isArray(x) ? x : [x]);

/**
 * A write through the API, just confirmed by Google: `data` is the tab as read under its lock
 * before the write. Its events exist when this returns. A failure is logged, not thrown (the
 * write has landed): the next re-read then reports the change as an edit of source "sheet".
 */
export async function recordApiWrite(sheetId: string, data: TabData, write: ApiWrite): Promise<void> {
  try {
    if (!(await isTracked(sheetId))) return;
    const seen = seenOf(copyOf(data));
    await inTurn(sheetId, data.tab, () =>
      observe(sheetId, data.tab, seen, new Date(), {
        copy: afterWrite(seen.copy, write),
        touched: touchedIds(seen.copy, write),
      }),
    );
  } catch (err) {
    failed(sheetId, data.tab, err, "webhooks: recording a write's events failed; its next read reports them as edits");
  }
}

/** Events not stored are webhooks and `/events` falling behind: said at error level and counted. */
function failed(sheetId: string, tab: string, err: unknown, message: string): void {
  metrics.databaseError({ during: "events" });
  log.error({ sheet: sheetId, tab, ...errorFields(err) }, message);
}

/**
 * The ids of the rows an API write touches, when rows are matched by id: its events are then the
 * differences of those rows alone (the rest of the tab did not change). Undefined on tabs
 * without an id column, whose row ids (row numbers) move with every delete.
 */
function touchedIds(before: TabCopy, write: ApiWrite): Set<string> | undefined {
  if (!before.hasIdColumn) return undefined;
  const ids = new Set<string>();
  for (const r of [...listOf(write.updated), ...listOf(write.deleted)]) ids.add(r.id);
  let next = Math.max(1, ...before.rows.map((r) => r[0])) + 1;
  for (const json of write.created ?? []) ids.add(String(json.id ?? next++));
  return ids;
}

/**
 * The copy after an API write, with the written cells marked as echoes of the write. Rows the
 * write did not touch are shared with `before` (never changed in place).
 */
export function afterWrite(before: TabCopy, write: ApiWrite): TabCopy {
  let rows = before.rows.slice();
  const echo: [string, string[]][] = [];
  const updates = listOf(write.updated);
  if (updates.length) {
    const at = new Map(rows.map((r, i) => [r[0], i]));
    for (const updated of updates) {
      const i = at.get(updated.rowNumber);
      if (i === undefined) continue;
      const row = rows[i]!;
      echo.push([row[1], before.columns.filter((_, c) => row[2][c] !== updated.cells[c])]);
      rows[i] = [row[0], row[1], [...updated.cells]];
    }
  }
  if (write.created) {
    let next = Math.max(1, ...rows.map((r) => r[0])) + 1;
    for (const json of write.created) {
      const id = String(json.id ?? next);
      rows.push([before.hasIdColumn ? next : Number(id), id, before.columns.map((c) => String(json[c] ?? ""))]);
      echo.push([id, before.columns]);
      next++;
    }
  }
  const deleted = new Set(listOf(write.deleted).map((r) => r.rowNumber));
  if (!deleted.size) return { ...before, rows, echo };
  // Rows below deleted ones move up by as many; without an id column, their ids (row numbers) move with them.
  const gone = [...deleted].sort((a, b) => a - b);
  const above = (n: number) => {
    let k = 0;
    while (k < gone.length && gone[k]! < n) k++;
    return k;
  };
  rows = rows
    .filter((r) => !deleted.has(r[0]))
    .map((r) => {
      const shift = above(r[0]);
      if (!shift) return r;
      const n = r[0] - shift;
      return [n, before.hasIdColumn ? r[1] : String(n), r[2]];
    });
  return { ...before, rows };
}

/** The rows of a copy whose ids are in `ids`. */
const only = (copy: TabCopy, ids: Set<string>): TabCopy => ({ ...copy, rows: copy.rows.filter((r) => ids.has(r[1])) });

/**
 * Compares what was seen with the stored copy (its differences are "sheet" events), then, for an
 * API write, the copy after the write with what was seen ("api" events), and stores the newest
 * copy. The stored row is locked first (its digest alone is read): its text is read and parsed
 * only when it differs from what was seen and this process does not hold that copy parsed.
 */
async function observe(
  sheetId: string,
  tab: string,
  seen: Seen,
  observedAt: Date,
  after: { copy: TabCopy; touched?: Set<string> } | undefined,
): Promise<void> {
  const key = tabKey(sheetId, tab);
  const { streams, stored: kept } = await inTransaction(async (tx) => {
    const stored = await lockTabSnapshot({ sheetId, tab }, tx);
    if (stored && stored.observedAt.getTime() > observedAt.getTime())
      return { streams: [] as StreamRef[], stored: undefined };
    const events: { change: Change; source: EventSource }[] = [];
    if (stored && stored.digest !== seen.digest) {
      const kept = state.copies.get(key);
      const previous =
        kept?.digest === stored.digest
          ? kept.copy
          : (JSON.parse((await tabSnapshotContent({ sheetId, tab }, tx))!) as TabCopy);
      for (const change of diffCopies(previous, seen.copy)) events.push({ change, source: "sheet" });
    }
    let next = seen;
    if (after) {
      const changes = after.touched
        ? diffCopies(only(seen.copy, after.touched), only(after.copy, after.touched))
        : diffCopies(seen.copy, after.copy);
      for (const change of changes) events.push({ change, source: "api" });
      next = seenOf(after.copy);
    }
    if (stored?.digest !== next.digest || after) {
      const { digest, content } = next;
      await saveTabSnapshot({ sheetId, tab, observedAt, digest, content }, tx);
    }
    return { streams: await insertEvents(tx, sheetId, tab, events), stored: next };
  });
  // Kept once committed: a copy whose transaction failed is not the stored one.
  if (kept) keepCopy(key, kept.digest, kept.copy);
  if (streams.length) await wakeStreams(streams);
}

/** The event's payload, as delivered (`data` of the Standard Webhooks body) and listed by /events. */
function eventData(sheetId: string, tab: string, change: Change, source: EventSource): Record<string, unknown> {
  const base = { sheet_id: sheetId, tab, row_id: change.rowId, source };
  switch (change.type) {
    case "schema.changed":
      return { ...base, columns: change.columns, previous_columns: change.previousColumns };
    case "row.updated":
      return { ...base, row: change.row, previous: change.previous, changes: change.changes };
    default:
      return { ...base, row: change.row };
  }
}

export const streamOf = (tab: string, rowId: string | null) => `${tab}\u001f${rowId ?? ""}`;

/** Stores events and a delivery of each for every enabled endpoint that wants it. */
async function insertEvents(
  tx: Executor,
  sheetId: string,
  tab: string,
  events: { change: Change; source: EventSource }[],
): Promise<StreamRef[]> {
  if (!events.length) return [];
  const inserted = await insertChangeEvents(
    // A NUL from Google (which Postgres cannot hold) is stored as U+FFFD.
    events.map(({ change, source }) => ({
      id: newEventId(),
      sheetId,
      type: change.type,
      tab,
      rowId: change.rowId === null ? null : withoutNul(change.rowId),
      source,
      data: storableJson(eventData(sheetId, tab, change, source)),
    })),
    tx,
  );
  const endpoints = await listEnabledEndpoints({ sheetId }, tx);
  const deliveries: NewWebhookDelivery[] = [];
  for (const endpoint of endpoints) {
    if (endpoint.tabs.length && !endpoint.tabs.includes(tab)) continue;
    for (const event of inserted) {
      if (endpoint.events.length && !endpoint.events.includes(event.type)) continue;
      deliveries.push({
        id: `dlv_${randomBytes(12).toString("base64url")}`,
        endpointId: endpoint.id,
        eventSeq: event.seq,
        stream: streamOf(tab, event.rowId),
      });
    }
  }
  await insertDeliveries(deliveries, tx);
  const unique = new Map(
    deliveries.map((d) => [`${d.endpointId}\u0000${d.stream}`, { endpointId: d.endpointId, stream: d.stream }]),
  );
  return [...unique.values()];
}

/** For tests and the health page: how many events a sheet has. */
export async function eventCount(sheetId: string): Promise<number> {
  return countSheetEvents({ sheetId });
}
