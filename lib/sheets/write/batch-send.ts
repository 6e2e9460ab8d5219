// One batch of the coalesced batch path: its parts planned in arrival order, sent as one guarded
// write, and each request answered from the batch's read-back (or told the outcome is unknown).
import type { sheets_v4 } from "@googleapis/sheets";
import { ApiError } from "@/lib/errors";
import { errorFields, log } from "@/lib/log";
import { recordApiWrite, type ApiWrite } from "@/lib/webhooks/changes";
import { changeEpoch, knownEpoch } from "@/lib/sheets/read/change-check";
import { quoteTab } from "@/lib/sheets/read/read-model";
import { parseTabValues, valuesOfGrid, type TabData } from "@/lib/sheets/values/rows";
import { installWrittenCopy } from "@/lib/sheets/read/tab-cache";
import type { TabModel } from "@/lib/sheets/values/tab-model";
import { QuotaRefusal } from "@/lib/google/quota";
import { GoogleRefusal } from "@/lib/sheets/sheet-access";
import { GUARD_LEADING_REQUESTS, guardedWrite, markerRequest, type SheetsRequest } from "./write-guard";
import { markOutOfDate } from "./tab-turn";
import { WAIT, type BatchPlan, type BatchSheet, type Part, type Queue, type Waiting, type Written } from "./batch-plan";

type RowData = sheets_v4.Schema$RowData;

/**
 * The most a batch's requests may weigh, serialized, before the next part waits for another
 * batch (a part alone always goes). GOOGLE.md names no request size limit; Google's Sheets
 * usage-limits page recommends payloads of at most 2 MB, and a create's body is capped at 1 MB
 * (DECISIONS 5): 1 MB keeps every coalesced batch well under the recommendation.
 */
export const MAX_BATCH_BYTES = 1024 * 1024;

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
async function planParts(
  batch: BatchPlan,
  jobs: Waiting[],
): Promise<{ parts: { w: Waiting; part: Part<unknown> }[]; deferred: Waiting[] }> {
  const parts: { w: Waiting; part: Part<unknown> }[] = [];
  const deferred: Waiting[] = [];
  let bytes = 0;
  for (const [i, w] of jobs.entries()) {
    const before = {
      nextRow: batch.nextRow,
      ids: new Set(batch.ids),
      rows: new Set(batch.rows),
      guarded: new Set(batch.guarded),
    };
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
export async function writeBatch(queue: Queue, data: TabData, jobs: Waiting[], resends = 0): Promise<BatchResult> {
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
      (writeId) => [
        ...first,
        ...parts.flatMap((p) => p.part.requests),
        markerRequest(writeId, kind.name, kind.marker(batch, model.gid)),
      ],
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
      const again = await writeBatch(
        queue,
        data,
        parts.filter((_, i) => i !== culprit).map((p) => p.w),
        resends + 1,
      );
      return { after: again.after, deferred: [...deferred, ...again.deferred] };
    }
    if (err instanceof QuotaRefusal) {
      // The quota guard kept the batch from leaving: nothing was written, the tab as read stands.
      for (const { w } of parts) w.reject(err);
      return { after: data, deferred };
    }
    await markOutOfDate(sheet, model, false);
    for (const { w, part } of parts)
      w.reject(err === unknownBatch && unknownId !== undefined ? part.unknown(unknownId) : err);
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
  const answers = await Promise.all(
    parts.map(async ({ part }) =>
      Promise.resolve()
        .then(() => part.answer(written))
        .then(
          (a) => ({ a }),
          (err: unknown) => ({ err }),
        ),
    ),
  );
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
function partNamedBy(
  err: unknown,
  parts: readonly { part: { requests: readonly unknown[] } }[],
  leading: number,
): number | undefined {
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
async function install(sheet: BatchSheet, model: TabModel, after: TabData): Promise<boolean> {
  try {
    // The epoch the sheet is in now: the copy is newer than any change Drive reported so far.
    const epoch = knownEpoch(sheet.id) ?? (await changeEpoch(sheet));
    await installWrittenCopy(sheet, model, after, epoch);
    return true;
  } catch (err) {
    log.warn(
      { sheet: sheet.id, tab: model.name, ...errorFields(err) },
      "rows: the written copy could not be installed; the tab is read again",
    );
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
