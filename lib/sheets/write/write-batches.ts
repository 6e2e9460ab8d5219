// Coalesced row writes. Google allows an identity 60 Sheets reads and 60 writes a minute, so the
// tab's writes on this instance queue behind the tab: requests that arrive together, or while a
// write of the tab is under way, go out as ONE guarded batch (write-guard.ts): one read of the
// tab and one batchUpdate for all of them instead of one of each per request.
//
// - Each request is planned on its own against the tab as read under the lock (its validation,
//   its ids, its 404, 409 or 412 are its own), in arrival order; one that depends on a part
//   already in the batch (an If-Match on a row the batch updates, an id the batch writes) waits
//   for the next batch, so it is decided as it would be after that part.
// - A Google failure of the batch is every part's, with the write guard's rules: unknown, each is
//   told so with the batch's write id (one id: the batch lands whole or not at all, so an
//   Idempotency-Key retry of any of them learns the truth from it). A batch Google refuses as
//   invalid (400: nothing was written) may be refused for one part's sake (a value Google will
//   not store, rows the spreadsheet has no room for): Google names the request it refused, so the
//   part holding it gets Google's error and the rest is planned again and sent once more (at most
//   MAX_RESENDS times): one bad part costs one more write, and a refusal every part would meet
//   (a full workbook) a few, never one per part.
// - A batch is capped by size as well as by count (MAX_BATCH_BYTES), so coalescing never builds
//   a request Google would refuse for its size where the parts alone would pass.
// - The batch's answer reads the whole tab back as the sheet now shows it (formulas anywhere in
//   the tab recalculated): each part's answer comes from it, and it becomes this instance's cached
//   copy at the tab's new version (installWrittenCopy), so a read after a write costs no Google
//   call here, and the other instances read the tab once more.
// - While this instance keeps the tab's lock, the next batch is planned on that read-back instead
//   of reading the tab again: it is the tab as of the last write, milliseconds ago, and no writer
//   of the service can have written since (an edit in the Sheets UI in that moment is as unseen as
//   one between a read and the write that follows it). Another turn of the lock reads the tab
//   again: a write on its own always plans on the tab as it is now.
import type { sheets_v4 } from "@googleapis/sheets";
import { ApiError } from "@/lib/errors";
import { withLock } from "@/lib/store/lock";
import { errorFields, log } from "@/lib/log";
import { recordApiWrite, type ApiWrite } from "@/lib/webhooks/changes";
import { changeEpoch, knownEpoch } from "@/lib/sheets/read/change-check";
import { quoteTab } from "@/lib/sheets/read/read-model";
import { parseTabValues, valuesOfGrid, type TabData } from "@/lib/sheets/values/rows";
import type { SheetRecord } from "@/lib/sheets/sheet-record";
import { fetchTab, installWrittenCopy, invalidateTabs } from "@/lib/sheets/read/tab-cache";
import type { TabModel } from "@/lib/sheets/values/tab-model";
import { QuotaRefusal } from "@/lib/google/quota";
import { GoogleRefusal } from "@/lib/sheets/sheet-access";
import { GUARD_LEADING_REQUESTS, guardedWrite, markerRequest, settlePending, type SheetsRequest } from "./write-guard";

type Sheet = Pick<SheetRecord, "id" | "access" | "refreshTokenCiphertext" | "cacheTtlSeconds"> & Partial<Pick<SheetRecord, "userEnteredWrites" | "v">>;
type RowData = sheets_v4.Schema$RowData;

export const tabLockKey = (sheetId: string, tab: string) => `sheetapi:lock:${sheetId}:${tab}`;

/** The batch being planned: the tab as read, and what its parts so far write. */
export interface BatchPlan {
  readonly data: TabData;
  /** 0-based index of the row the next created rows go to (the batch's creates follow each other). */
  nextRow: number;
  /** Ids the batch's creates write. */
  readonly ids: Set<string>;
  /** Row numbers the batch's updates or deletes touch. */
  readonly rows: Set<number>;
  /** Rows of those an update with an If-Match touches: no other part may change them in the same batch. */
  readonly guarded: Set<number>;
}

/** What the batch wrote, for each part's answer. */
export interface Written {
  /** The whole tab after the batch, as the sheet shows it (row 1 first); undefined for a write found to have landed after a timeout. */
  grid: RowData[] | undefined;
  /** The same, as a read gives it. */
  after: TabData | undefined;
  /** How far the batch's created rows moved before it landed (its marker says, after a timeout). */
  shift: number;
}

export interface Part<T> {
  requests: SheetsRequest[];
  /** The part's answer once the batch is confirmed (it may still fail on its own), and what it changed, for webhooks. */
  answer(written: Written): Promise<{ result: T; events?: ApiWrite }> | { result: T; events?: ApiWrite };
  /** The part's error when the batch's outcome stays unknown. */
  unknown(writeId: number): ApiError;
}

/** The part depends on one already in the batch: planned again in the next batch. */
export const WAIT: unique symbol = Symbol("wait");
export type Planned<T> = Part<T> | typeof WAIT | { done: T };

export interface WriteJob<T> {
  /** Plans the request's part against the batch; what it throws is this request's failure alone. */
  plan(batch: BatchPlan): Promise<Planned<T>>;
  /** The tab could not be read before the write: the request's error (thrown). */
  readFailed?(err: unknown): never;
}

export interface BatchKind {
  name: "create" | "update" | "delete";
  /** At most this many requests in one batch. */
  max: number;
  /** Where the batch's marker sits (write-guard.ts): the created rows (it moves with them), or the tab. */
  marker(batch: BatchPlan, gid: number): sheets_v4.Schema$DeveloperMetadataLocation;
  /** Google refused the batch as built: the requests to send it again with, first; undefined: the refusal stands. */
  onRefused?(err: unknown, gid: number): SheetsRequest[] | undefined;
}

interface Waiting {
  job: WriteJob<unknown>;
  resolve: (value: unknown) => void;
  reject: (err: unknown) => void;
}

interface Queue {
  sheet: Sheet;
  model: TabModel;
  kind: BatchKind;
  waiting: Waiting[];
}

/**
 * The most a batch's requests may weigh, serialized, before the next part waits for another
 * batch (a part alone always goes). GOOGLE.md names no request size limit; Google's Sheets
 * usage-limits page recommends payloads of at most 2 MB, and a create's body is capped at 1 MB
 * (DECISIONS 5): 1 MB keeps every coalesced batch well under the recommendation.
 */
export const MAX_BATCH_BYTES = 1024 * 1024;
/** How long the first request of an idle tab waits for others to join its batch. */
const JOIN_WINDOW_MS = 3;
/** Batches one turn of the tab's lock may send: other instances' writers get their turn too. */
const BATCHES_PER_TURN = 4;
const queues = new Map<string, Queue>();

/**
 * Queues a request's write of the tab; resolves with its answer. Requests of one kind, on one tab,
 * made with the same version of the sheet's record share batches: a request made after the record
 * changed (registered again, another service account or grant, access or way of writing changed)
 * is sent with its own record, never with the one an earlier request brought.
 */
export function queueWrite<T>(sheet: Sheet, model: TabModel, kind: BatchKind, job: WriteJob<T>): Promise<T> {
  const key = [sheet.id, sheet.v ?? "", model.gid, model.name, kind.name, sheet.access, sheet.userEnteredWrites === true, sheet.refreshTokenCiphertext ?? ""].join("\u0000");
  let queue = queues.get(key);
  if (!queue) {
    queues.set(key, (queue = { sheet, model, kind, waiting: [] }));
    setTimeout(() => void drain(key, queue!), JOIN_WINDOW_MS);
  }
  const q = queue;
  return new Promise<T>((resolve, reject) => q.waiting.push({ job: job as WriteJob<unknown>, resolve: resolve as (value: unknown) => void, reject }));
}

async function drain(key: string, queue: Queue): Promise<void> {
  while (queue.waiting.length) await lockTurn(queue);
  queues.delete(key);
}

/** One turn of the tab's lock: earlier writes settled, the tab read once, then batches while requests wait. */
async function lockTurn(queue: Queue): Promise<void> {
  const { sheet, model } = queue;
  try {
    await withLock(tabLockKey(sheet.id, model.name), async () => {
      await settlePending(sheet, model);
      let data: TabData | undefined;
      for (let n = 0; n < BATCHES_PER_TURN && queue.waiting.length; n++) {
        const jobs = queue.waiting.splice(0, queue.kind.max);
        if (!data) {
          try {
            data = await fetchTab(sheet, model);
          } catch (err) {
            for (const w of jobs) rejectWith(w, () => (w.job.readFailed ? w.job.readFailed(err) : err));
            return;
          }
        }
        const batch = await writeBatch(queue, data, jobs);
        queue.waiting.unshift(...batch.deferred);
        // Without a copy from the write's own answer, the next batch starts a new turn (which settles and reads).
        if (!batch.after) return;
        data = batch.after;
      }
    });
  } catch (err) {
    // The lock, the store or an earlier write not settled: every request waiting fails alike.
    for (const w of queue.waiting.splice(0)) w.reject(err);
  }
}

/** Copies of the tab on every instance are out of date. A failed invalidation is logged: the TTL bounds it. */
async function markOutOfDate(sheet: Sheet, model: TabModel, confirmed = true): Promise<void> {
  await invalidateTabs(sheet, [model.name], { confirmed }).catch((err: unknown) => log.warn({ sheet: sheet.id, ...errorFields(err) }, "rows: cache invalidation failed"));
}

function rejectWith(w: Waiting, error: () => unknown): void {
  try {
    w.reject(error());
  } catch (err) {
    w.reject(err);
  }
}

/** Google refused the batch as invalid (400): under the write guard's rules nothing was written, and nothing can be later. */
const refusedAsInvalid = (err: unknown) => err instanceof ApiError && err.code === "validation_error";

const byteSize = (requests: SheetsRequest[]) => Buffer.byteLength(JSON.stringify(requests));

interface BatchResult {
  /** The tab as the batch's answer read it back, installed as this instance's copy; undefined: the next batch reads the tab again. */
  after?: TabData;
  /** Requests to plan again in a later batch. */
  deferred: Waiting[];
}

/**
 * Plans each job against the batch, in arrival order. A job planned past MAX_BATCH_BYTES is
 * undone (the batch's plan as before it) and waits, with every job after it, for the next batch.
 */
async function planParts(batch: BatchPlan, jobs: Waiting[]): Promise<{ parts: { w: Waiting; part: Part<unknown> }[]; deferred: Waiting[] }> {
  const parts: { w: Waiting; part: Part<unknown> }[] = [];
  const deferred: Waiting[] = [];
  let bytes = 0;
  for (const [i, w] of jobs.entries()) {
    const before = { nextRow: batch.nextRow, ids: new Set(batch.ids), rows: new Set(batch.rows), guarded: new Set(batch.guarded) };
    try {
      const planned = await w.job.plan(batch);
      if (planned === WAIT) deferred.push(w);
      else if ("done" in planned) w.resolve(planned.done);
      else {
        const size = byteSize(planned.requests);
        if (parts.length && bytes + size > MAX_BATCH_BYTES) {
          batch.nextRow = before.nextRow;
          for (const key of ["ids", "rows", "guarded"] as const) {
            batch[key].clear();
            for (const x of before[key] as Set<never>) batch[key].add(x);
          }
          deferred.push(...jobs.slice(i));
          break;
        }
        bytes += size;
        parts.push({ w, part: planned });
      }
    } catch (err) {
      w.reject(err);
    }
  }
  return { parts, deferred };
}

/**
 * Plans, sends and answers one batch. Whenever something may have been written that no copy from
 * the batch's own answer shows, the tab's copies are marked out of date, on every instance, before
 * any of its requests is answered (a batch Google refused wrote nothing: the tab as read stands).
 */
async function writeBatch(queue: Queue, data: TabData, jobs: Waiting[], resends = 0): Promise<BatchResult> {
  const { sheet, model, kind } = queue;
  const batch: BatchPlan = { data, nextRow: data.lastRowNumber, ids: new Set(), rows: new Set(), guarded: new Set() };
  const { parts, deferred } = await planParts(batch, jobs);
  if (!parts.length) return { after: data, deferred };

  let unknownId: number | undefined;
  let sentFirst: SheetsRequest[] = [];
  const unknownBatch = new ApiError("gateway_timeout", "The batch's outcome is unknown.");
  const send = (first: SheetsRequest[]) => {
    // Google's refusal counts requests from the first one sent: partNamedBy needs these.
    sentFirst = first;
    return guardedWrite(
      sheet,
      model,
      kind.name,
      (writeId) => [...first, ...parts.flatMap((p) => p.part.requests), markerRequest(writeId, kind.name, kind.marker(batch, model.gid))],
      (writeId) => ((unknownId = writeId), unknownBatch),
      // The whole tab, as the sheet shows it after the batch: each part's answer, and the tab's next copy.
      { readBack: [quoteTab(model.name)] },
    );
  };
  let outcome: Awaited<ReturnType<typeof send>>;
  try {
    try {
      outcome = await send([]);
    } catch (err) {
      const first = kind.onRefused?.(err, model.gid);
      if (!first) throw err;
      outcome = await send(first);
    }
  } catch (err) {
    if (refusedAsInvalid(err)) {
      // Nothing was written: the tab as read is still the tab as it is. Google names the request
      // it refused; the part that holds it fails alone and the others go again, a few times at
      // most, so a refusal that would meet every part (a full workbook) costs a few writes, not
      // one per part of the minute's quota. Unnamed, or named outside every part: all fail.
      const culprit = partNamedBy(err, parts, GUARD_LEADING_REQUESTS + sentFirst.length);
      if (culprit === undefined || parts.length === 1 || resends >= MAX_RESENDS) {
        for (const { w } of parts) w.reject(err);
        return { after: data, deferred };
      }
      parts[culprit]!.w.reject(err);
      const again = await writeBatch(queue, data, parts.filter((_, i) => i !== culprit).map((p) => p.w), resends + 1);
      return { after: again.after, deferred: [...deferred, ...again.deferred] };
    }
    if (err instanceof QuotaRefusal) {
      // The quota guard kept the batch from leaving: nothing was written, the tab as read stands.
      for (const { w } of parts) w.reject(err);
      return { after: data, deferred };
    }
    await markOutOfDate(sheet, model, false);
    for (const { w, part } of parts) w.reject(err === unknownBatch && unknownId !== undefined ? part.unknown(unknownId) : err);
    return { deferred };
  }

  const grid = outcome.updated ? gridOf(outcome.updated, model) : undefined;
  const start = outcome.marker?.location?.dimensionRange?.startIndex;
  const after = grid ? parseTabValues(model.name, valuesOfGrid(grid), model) : undefined;
  const written: Written = { grid, after, shift: typeof start === "number" ? start - data.lastRowNumber : 0 };
  const installed = after ? await install(sheet, model, after) : false;
  // Without the read-back installed, every copy of the tab is out of date before anyone is told
  // the write succeeded: a client reading right after its 201 must see its row.
  if (!installed) await markOutOfDate(sheet, model);
  const answers = await Promise.all(parts.map(async ({ part }) => Promise.resolve().then(() => part.answer(written)).then((a) => ({ a }), (err: unknown) => ({ err }))));
  const events = answers.flatMap((x) => ("a" in x && x.a.events ? [x.a.events] : []));
  if (events.length) await recordApiWrite(sheet.id, data, mergeEvents(events));
  answers.forEach((x, i) => ("a" in x ? parts[i]!.w.resolve(x.a.result) : parts[i]!.w.reject(x.err)));
  return { after: installed ? after : undefined, deferred };
}

/** How many times the rest of a refused batch is sent again without the part Google named. */
const MAX_RESENDS = 3;

/**
 * The part holding the request Google's refusal names ("Invalid requests[7].insertDimension: ..."),
 * counting `leading` requests sent before the parts' own; undefined when it names none of them.
 */
function partNamedBy(err: unknown, parts: readonly { part: { requests: readonly unknown[] } }[], leading: number): number | undefined {
  // Google's own words: the message the client reads no longer holds the pointer.
  const named = /Invalid requests\[(\d+)\]/.exec(err instanceof GoogleRefusal ? err.googleMessage : "");
  if (!named) return undefined;
  let at = Number(named[1]) - leading;
  for (const [i, { part }] of parts.entries()) {
    if (at < 0) return undefined;
    if (at < part.requests.length) return i;
    at -= part.requests.length;
  }
  return undefined;
}

/** The written tab's grid in a batch's read-back (the only range asked for). */
function gridOf(updated: sheets_v4.Schema$Spreadsheet, model: TabModel): RowData[] | undefined {
  const tab = updated.sheets?.find((s) => s.properties?.sheetId === model.gid) ?? updated.sheets?.[0];
  const grid = tab?.data?.[0];
  // A read-back that does not start at A1 is not the whole tab: no copy from it.
  if (!grid || (grid.startRow ?? 0) !== 0 || (grid.startColumn ?? 0) !== 0) return undefined;
  return grid.rowData ?? [];
}

/** Installs the read-back as this instance's copy; false when the store could not move the tab's version. */
async function install(sheet: Sheet, model: TabModel, after: TabData): Promise<boolean> {
  try {
    // The epoch the sheet is in now: the copy is newer than any change Drive reported so far.
    const epoch = knownEpoch(sheet.id) ?? (await changeEpoch(sheet));
    await installWrittenCopy(sheet, model, after, epoch);
    return true;
  } catch (err) {
    log.warn({ sheet: sheet.id, tab: model.name, ...errorFields(err) }, "rows: the written copy could not be installed; the tab is read again");
    return false;
  }
}

const listOf = <T>(x: T | T[] | undefined): T[] => (x === undefined ? [] : Array.isArray(x) ? x : [x]);

function mergeEvents(events: ApiWrite[]): ApiWrite {
  return {
    created: events.flatMap((e) => e.created ?? []),
    updated: events.flatMap((e) => listOf(e.updated)),
    deleted: events.flatMap((e) => listOf(e.deleted)),
  };
}
