// Row writes (DECISIONS 2, 4-7a): validated before anything is written, values stored as entered
// (text stays text, never a formula, unless the owner opted the sheet in to USER_ENTERED writes:
// value-input.ts), updates of the named cells only, deletes of exactly the
// matching row. Every write to a tab, from any instance, takes the tab's lock, settles the tab's
// earlier writes whose outcome is unknown, reads the tab as it is now and sends one guarded,
// atomic batch (write-guard.ts). So ids, explicit or generated, come from one serialised
// decision per tab, and rows are placed at explicit positions that cannot move meanwhile.
// Concurrent creates (or updates, or deletes) of one tab share that batch (write-batches.ts).
//
// Google calls: a batch of creates, updates or deletes costs two (a read of the tab, which tells
// where its data ends, which ids it holds and where each row is; and one batchUpdate, whose
// answer reads the tab back: the next read of the tab on this instance costs none). A write
// Google does not answer costs a fence (and a search when the fence finds the id taken) before
// anything else.
import { ApiError, OutcomeUnknown, quoted } from "@/lib/errors";
import { getLimitStore, writesPaused } from "@/lib/store/store";
import type { sheets_v4 } from "@googleapis/sheets";
import { cellValue, checkColumns, checkRowShape, displayed, rowsOfCreateBody, unknownColumnsOr, type CellInput, type RowInput } from "./row-input";
import { matchesAny } from "@/lib/http/conditional";
import { rowEtag, rowToJson, type JsonValue, type TabData, type TabRow } from "@/lib/sheets/values/rows";
import { requireRegistrantCanEdit } from "@/lib/sheets/access/access-lapse";
import type { SheetRecord } from "@/lib/sheets/sheet-record";
import { currentCopy, invalidateTabs } from "@/lib/sheets/read/tab-cache";
import { findRow } from "@/lib/sheets/read/tab-index";
import type { TabModel } from "@/lib/sheets/values/tab-model";
import { asEntered, idColumnOf } from "./value-input";
import { hasPendingWrites, outcomeOf, settlePending, type SheetsRequest } from "./write-guard";
import { queueWrite, tabLockKey, WAIT, type BatchKind, type BatchPlan } from "./write-batches";
import { withLock } from "@/lib/store/lock";
import { idMark, raiseIdMark } from "@/db/queries/id-marks";
import { errorFields, log } from "@/lib/log";

export type WriteSheet = Pick<SheetRecord, "id" | "access" | "refreshTokenCiphertext" | "cacheTtlSeconds" | "writable"> & Partial<Pick<SheetRecord, "userEnteredWrites" | "accessState">>;

export { tabLockKey };
/**
 * Ids are counted per tab by its gid, which stays when the owner renames the tab: a renamed tab
 * goes on from its ids. The earlier release counted by the tab's name: that counter, while the
 * store holds it, is read as a floor too (db/queries/id-marks.ts keeps both marks).
 */
export const idCounterKey = (sheetId: string, gid: number) => `sheetapi:ids:${sheetId}:gid:${gid}`;
const namedCounterKey = (sheetId: string, tab: string) => `sheetapi:ids:${sheetId}:${tab}`;
// The counter may expire: the tab's mark in the database is the floor it starts again from.
const ID_COUNTER_TTL_SECONDS = 30 * 24 * 3600;

export function requireWritable(sheet: WriteSheet): void {
  requireRegistrantCanEdit(sheet);
  if (sheet.writable) return;
  throw new ApiError(
    "forbidden",
    "This sheet is read-only for the service. To allow writes, share it with the service's Google account as Editor and register it again in the dashboard, or register it through the private flow: signed in to the dashboard, open /auth/google?sheet_url=<the sheet's address>, and SheetAPI writes with your own Google access (if you can edit the sheet).",
  );
}

/** The row as found on a fresh read, checked against the client's If-Match (optimistic concurrency). */
function currentRow(data: TabData, rowId: string, ifMatch: string | null): TabRow {
  const row = findRow(data, rowId);
  if (!row) throw new ApiError("not_found", `No row with id "${rowId}" in the tab "${data.tab}".`);
  if (ifMatch !== null && !matchesAny(ifMatch, rowEtag(data, row))) {
    const moved = data.hasIdColumn ? "changed" : "changed or another row now has this row number (rows above were inserted or deleted)";
    throw new ApiError("precondition_failed", `Row ${rowId} ${moved} since you read it (its ETag is now ${rowEtag(data, row)}); nothing was changed. Read it again and retry.`, {}, { ETag: rowEtag(data, row) });
  }
  return row;
}

/**
 * Refuses a write naming a column that the tab's current cached copy does not have (400) before
 * it waits for the tab's turn and reads the tab: a read would not show that column either
 * (DECISIONS 12: an edit in the sheet shows within the TTL), and a typo costs no Google read.
 * Passing here proves nothing: the write checks its columns again on the tab as read under the lock.
 */
async function refuseUnknownColumns(sheet: WriteSheet, model: TabModel, rows: RowInput[], update: boolean): Promise<void> {
  const copy = await currentCopy(sheet, model);
  if (copy) checkColumns(rows, copy, { update });
}

/**
 * A 504 tells the client to check with a GET of the row, so that GET must not answer 404 while
 * the write it checks may still land. When the row is not found and the tab has writes whose
 * outcome is unknown, they are settled first under the tab's lock (each has landed, or a fence
 * now keeps it from ever landing) and the row is read again from Google: the answer then holds.
 * Google not confirming the settlement answers 503, never a 404 that may turn out wrong.
 */
export async function rowAfterUnknownWrites<T>(sheet: WriteSheet, model: TabModel, read: (fresh: boolean) => Promise<T>): Promise<T> {
  try {
    return await read(false);
  } catch (err) {
    if (!(err instanceof ApiError && err.code === "not_found") || !(await hasPendingWrites(sheet.id, model.name))) throw err;
  }
  await withLock(tabLockKey(sheet.id, model.name), () => settlePending(sheet, model));
  // A settled write may have landed: no copy from before it answers the read again.
  await invalidateTabs(sheet, [model.name], { confirmed: false });
  return read(true);
}

/**
 * The tab's writes take turns, on every instance; the earlier ones are settled first. For writes
 * that do not share batches (bulk-writes.ts, id-column.ts): the tab is read again after them.
 */
export async function underTabLock<T>(sheet: WriteSheet, model: TabModel, work: () => Promise<T>): Promise<T> {
  const result = await withLock(tabLockKey(sheet.id, model.name), async () => {
    await settlePending(sheet, model);
    return work();
  });
  // The tab's copies on every instance are out of date, its siblings' are not. A failed
  // invalidation is logged: the TTL bounds it.
  await invalidateTabs(sheet, [model.name]).catch((err: unknown) => log.warn({ sheet: sheet.id, ...errorFields(err) }, "rows: cache invalidation failed"));
  return result;
}

/** A value as Google's CellData: a string is text (never a formula), null clears the cell. */
export function cellData(value: CellInput | string): sheets_v4.Schema$CellData {
  const v = cellValue(value);
  if (v === "") return {};
  if (typeof v === "number") return { userEnteredValue: { numberValue: v } };
  if (typeof v === "boolean") return { userEnteredValue: { boolValue: v } };
  return { userEnteredValue: { stringValue: v } };
}

const rowApi = (sheet: WriteSheet, tab: string, id: string) => `GET /api/v1/${sheet.id}/${encodeURIComponent(tab)}/${encodeURIComponent(id)}`;

// --- Create ------------------------------------------------------------------------------------

/**
 * An id written as a number: a plain integer (no sign, no leading zero) of at most 15 digits,
 * which Google Sheets holds and shows exactly (it keeps 15 significant digits). Any other id is
 * written as text, exactly as given: "02" written as a number would show as "2", another row's
 * id, and 1234567890123456 would come back rounded, naming no row. The tab's id counter counts
 * these ids only: a longer digit string is an id like "A-12", kept as text and never counted.
 */
const NUMERIC_ID = /^(0|[1-9]\d{0,14})$/;

function maxIntegerId(ids: Iterable<string>): number {
  let max = 0;
  for (const id of ids) if (NUMERIC_ID.test(id)) max = Math.max(max, Number(id));
  return max;
}

/**
 * The last of `count` new ids above `floor` and every id the tab ever handed out. The limit
 * store's counter hands them out (atomic across instances, and there while the database is
 * down); the tab's mark in the database keeps the highest one durably, and is the counter's
 * floor, so a counter lost (a flushed Redis, an expiry, a restart) never hands an id out again.
 * A write fails (503) without the store; without the database it goes on from the counter alone.
 */
export async function nextIds(sheetId: string, tab: Pick<TabModel, "gid" | "name">, floor: number, count: number): Promise<number> {
  const store = getLimitStore();
  const key = idCounterKey(sheetId, tab.gid);
  const [mark, [counted, countedByName]] = await Promise.all([
    idMark(sheetId, tab).then((n) => ({ n }), (err: unknown) => ({ err })),
    store.mget<number>([key, namedCounterKey(sheetId, tab.name)]).catch(() => [null, null]),
  ]);
  if ("err" in mark) {
    // Without the mark, only a counter the store still holds knows every id handed out.
    if (counted === null) throw writesPaused("new ids cannot be assigned while the database is unreachable");
    log.warn({ sheet: sheetId, tab: tab.name, ...errorFields(mark.err) }, "ids: the tab's mark could not be read; the store's counter goes on alone");
  }
  const marked = "n" in mark ? mark.n : 0;
  let last: number;
  try {
    last = await store.allocate(key, Math.max(floor, marked, Number(countedByName ?? 0)), count, ID_COUNTER_TTL_SECONDS);
  } catch {
    throw writesPaused("ids cannot be assigned while the coordination store is unreachable");
  }
  await raiseIdMark(sheetId, tab, last).catch((err: unknown) => log.warn({ sheet: sheetId, tab: tab.name, last, ...errorFields(err) }, "ids: the tab's mark could not be raised"));
  return last;
}

/** Ids that name a route under the tab, not a row: `/{tabName}/_distinct` is the distinct values. */
const RESERVED_IDS = new Set(["_aggregate", "_distinct"]);

/** Ids for new rows: given ones checked against the sheet, missing ones from the tab's counter (nextIds). */
export async function assignIds(sheet: WriteSheet, model: TabModel, data: TabData, rows: RowInput[]): Promise<string[]> {
  const taken = new Set(data.rows.map((r) => r.id));
  const given = new Map<string, number>();
  const missing: number[] = [];
  const ids = rows.map((row, i) => {
    const id = row.id === null || row.id === undefined ? "" : String(row.id);
    if (id === "") {
      missing.push(i);
      return "";
    }
    if (RESERVED_IDS.has(id)) throw new ApiError("validation_error", `Row ${i + 1}: the id "${id}" is taken by the route /{tabName}/${id}, so such a row could not be reached by its id: choose another.`);
    if (taken.has(id)) throw new ApiError("conflict", `A row with id "${id}" already exists in "${data.tab}".`);
    if (given.has(id)) throw new ApiError("conflict", `Rows ${given.get(id)! + 1} and ${i + 1} of this request both have id "${id}": each row needs its own id.`);
    given.set(id, i);
    return id;
  });
  // The counter also learns of given integer ids, so an id once held is never handed out again.
  const floor = Math.max(maxIntegerId(taken), maxIntegerId(given.keys()));
  const last = await nextIds(sheet.id, model, floor, missing.length);
  missing.forEach((rowIndex, k) => (ids[rowIndex] = String(last - missing.length + 1 + k)));
  return ids;
}

/** New rows as Google's RowData: each named cell, the id column from `ids`, the rest blank. */
export function newRowCells(data: TabData, rows: RowInput[], ids: string[]): sheets_v4.Schema$RowData[] {
  const width = Math.max(0, ...data.columns.map((c) => c.index)) + 1;
  return rows.map((row, i) => {
    const cells: sheets_v4.Schema$CellData[] = Array.from({ length: width }, () => ({}));
    for (const c of data.columns) {
      if (c.name === "id" && data.hasIdColumn) cells[c.index] = cellData(NUMERIC_ID.test(ids[i]!) ? Number(ids[i]) : ids[i]!);
      else if (c.name in row) cells[c.index] = cellData(row[c.name]!);
    }
    return { values: cells };
  });
}

export type CreateResult = { created: number; rows: Record<string, JsonValue>[] };

/**
 * A retry with the Idempotency-Key of a create that did not land: its rows get the ids the
 * earlier answer named ("Check with GET .../13" must find the row the retry writes), where no
 * row has taken them since.
 */
function withEarlierIds(rows: RowInput[], data: TabData, earlierAnswer: unknown): RowInput[] {
  const earlier = (earlierAnswer as Partial<CreateResult> | undefined)?.rows;
  if (!Array.isArray(earlier) || earlier.length !== rows.length) return rows;
  const taken = new Set(data.rows.map((r) => r.id));
  return rows.map((row, i) => {
    const id = earlier[i]?.id;
    const free = (typeof id === "string" || typeof id === "number") && !taken.has(String(id));
    return (row.id === null || row.id === undefined) && free ? { ...row, id: String(id) } : row;
  });
}

/** A batch's marker sits on the rows its creates insert (one range: they follow each other), or on the tab. */
const CREATE: BatchKind = { name: "create", max: 100, marker: (b, gid) => ({ dimensionRange: { sheetId: gid, dimension: "ROWS", startIndex: b.data.lastRowNumber, endIndex: b.nextRow } }) };
const UPDATE: BatchKind = { name: "update", max: 100, marker: (_b, gid) => ({ sheetId: gid }) };
/** One delete a batch: its refusal (every row of the grid) is retried with a blank row appended first. */
const DELETE: BatchKind = { name: "delete", max: 1, marker: (_b, gid) => ({ sheetId: gid }), onRefused: (err, gid) => (refusesDeletingEveryRow(err) ? [appendBlankRow(gid)] : undefined) };
/** Rows one batch of creates inserts at most (a request's own 1,000 always go alone). */
const MAX_BATCH_ROWS = 1000;

/**
 * Creates rows at the end of the tab's data (after its last non-blank row, whatever blank rows
 * or blank A1 it has), in one atomic batch: rows inserted there, their values, their marker.
 * `earlierWrite`: the write of an earlier request with the same Idempotency-Key whose outcome
 * was unknown; if it landed, nothing is written and "earlier-landed" is returned.
 */
export async function createRows(sheet: WriteSheet, model: TabModel, body: unknown, { earlierWrite, earlierAnswer, idempotencyKey }: { earlierWrite?: number; earlierAnswer?: unknown; idempotencyKey?: string } = {}): Promise<CreateResult | "earlier-landed"> {
  requireWritable(sheet);
  const asked = rowsOfCreateBody(body);
  await refuseUnknownColumns(sheet, model, asked, false);
  return queueWrite<CreateResult | "earlier-landed">(sheet, model, CREATE, {
    readFailed: (err) => unknownColumnsOr(err, asked, model),
    plan: async (batch: BatchPlan) => {
      if (earlierWrite !== undefined && (await outcomeOf(sheet.id, earlierWrite))) return { done: "earlier-landed" };
      const { data } = batch;
      checkColumns(asked, data, { update: false });
      const rows = data.hasIdColumn ? withEarlierIds(asked, data, earlierAnswer) : asked;
      // An id the batch already writes is decided after that write: 409 then, never a second row.
      if (rows.some((row) => row.id !== null && row.id !== undefined && batch.ids.has(String(row.id)))) return WAIT;
      const inBatch = batch.nextRow - data.lastRowNumber;
      if (inBatch > 0 && inBatch + rows.length > MAX_BATCH_ROWS) return WAIT;
      const ids = data.hasIdColumn ? await assignIds(sheet, model, data, rows) : [];
      ids.forEach((id) => batch.ids.add(id));
      // Row index (0-based) of the first new row: right after the last row holding anything, or the batch's rows before these.
      const at = batch.nextRow;
      batch.nextRow += rows.length;
      const values = newRowCells(data, rows, ids);
      // As the sheet shows the new rows (read back in the write's answer); as written when a write
      // settled after a timeout has no answer.
      const answer = (firstRow: number, shown?: sheets_v4.Schema$RowData[]): CreateResult => ({
        created: rows.length,
        rows: rows.map((row, i) => {
          const readBack = shown?.[i]?.values;
          const cells = data.columns.map((c) => (readBack ? (readBack[c.index]?.formattedValue ?? "") : c.name === "id" && data.hasIdColumn ? ids[i]! : displayed(row[c.name] ?? null)));
          return rowToJson(data, { rowNumber: firstRow + i, id: data.hasIdColumn ? ids[i]! : String(firstRow + i), cells });
        }),
      });
      const range = { sheetId: model.gid, dimension: "ROWS", startIndex: at, endIndex: at + rows.length };
      const how = data.hasIdColumn
        ? `Check with ${rowApi(sheet, model.name, ids[0]!)}${ids.length > 1 ? ` (ids ${ids.join(", ")})` : ""}`
        : `Check by listing the tab (the rows would be at row ${at + 1}${rows.length > 1 ? ` to ${at + rows.length}` : ""})`;
      const requests: SheetsRequest[] = asEntered(sheet, [
        // Inserted rows take the formats of the row above, as in the Sheets UI (not the header's).
        { insertDimension: { range, inheritFromBefore: at > 1 } },
        { updateCells: { start: { sheetId: model.gid, rowIndex: at, columnIndex: 0 }, rows: values, fields: "userEnteredValue" } },
      ], idColumnOf(data));
      return {
        requests,
        unknown: (writeId: number) =>
          new OutcomeUnknown(
            `Google Sheets did not confirm the new row${rows.length > 1 ? "s" : ""} in time; the outcome is unknown (it may still land, once). ${how}, or ${idempotencyKey ? "send the same request again with the same Idempotency-Key: it will not be written twice" : "retry with an Idempotency-Key next time so a retry cannot write twice"}. No other write to this tab goes out before this one is settled.`,
            writeId,
            answer(at + 1),
          ),
        // The new rows as the sheet shows them (the formats they inherit applied), from the write's own
        // answer; found after a timeout, where the marker says the rows are now.
        answer: ({ grid, shift, after }) => {
          const result = answer(at + shift + 1, grid?.slice(at, at + rows.length));
          // Someone edited the sheet between the tab's read and Google applying the write: the
          // rows are written, but maybe not as planned. The client is told, never a 201.
          const edited = after && editedMeanwhile(data, after, ids);
          if (edited) throw new ApiError("conflict", `The sheet was edited while ${rows.length > 1 ? "these rows were" : "this row was"} created: ${edited} The row${rows.length > 1 ? "s were" : " was"} written at row ${at + 1}${rows.length > 1 ? ` to ${at + rows.length}` : ""}: check ${rows.length > 1 ? "them" : "it"} in the sheet.`);
          return { result, events: { created: result.rows } };
        },
      };
    },
  });
}

/**
 * What an edit in the sheet changed between the read a create was planned on and the create's own
 * read-back: the columns (the values may be in others than named), or a new id typed in another
 * row too. Undefined when neither.
 */
function editedMeanwhile(before: TabData, after: TabData, ids: string[]): string | undefined {
  const header = (data: TabData) => data.columns.map((c) => `${c.name}@${c.index}`).join(",");
  if (header(before) !== header(after)) return `its columns changed (now ${after.columns.map((c) => c.name).join(", ")}), so the values may be in other columns than named.`;
  const doubled = ids.filter((id) => after.rows.filter((r) => r.id === id).length > 1);
  return doubled.length ? `another row now holds the id${doubled.length > 1 ? "s" : ""} ${doubled.map(quoted).join(", ")} too.` : undefined;
}

// --- Update ------------------------------------------------------------------------------------

/**
 * Why the row an update was written to is not the row asked for, from the row read back in the
 * write's own answer: on a tab with an id column, another id there; on a tab without one and an
 * If-Match, cells the update did not name changed meanwhile (the row asked for was a state, and
 * that state is gone); `skip`: the cells not to compare (those the update named, formulas).
 * Undefined when it is the row (or nothing was read back).
 */
function landedElsewhere(data: TabData, row: TabRow, rowId: string, before: string[], after: string[], readBack: boolean, ifMatch: boolean, skip: Set<string>): string | undefined {
  if (!readBack) return undefined;
  const id = data.columns.findIndex((c) => c.name === "id");
  if (data.hasIdColumn && id >= 0) {
    return after[id] === rowId ? undefined : `row ${row.rowNumber} of "${data.tab}" held id ${quoted(after[id]!)} by then, and the update was written to that row. Row ${quoted(rowId)} was not changed.`;
  }
  if (!ifMatch) return undefined;
  const changed = data.columns.filter((c, i) => !skip.has(c.name) && after[i] !== before[i]).map((c) => c.name);
  return changed.length ? `row ${row.rowNumber} of "${data.tab}" no longer matched If-Match (${changed.join(", ")} changed meanwhile), and the update was written to it.` : undefined;
}

export async function updateRow(sheet: WriteSheet, model: TabModel, rowId: string, body: unknown, { ifMatch = null }: { ifMatch?: string | null } = {}): Promise<{ row: Record<string, JsonValue>; etag: string }> {
  requireWritable(sheet);
  const patch = checkRowShape(body);
  // A row read, edited and sent back whole carries its own id: that is no change, and is dropped.
  if ("id" in patch && patch.id !== null && displayed(patch.id) === rowId) delete patch.id;
  if ("id" in patch) throw new ApiError("validation_error", `id cannot be changed: it identifies the row (this row's id is ${quoted(rowId)}).`);
  if (!Object.keys(patch).length) throw new ApiError("validation_error", "The body names only the row's own id: name at least one other column to change.");
  await refuseUnknownColumns(sheet, model, [patch], true);
  return queueWrite(sheet, model, UPDATE, {
    readFailed: (err) => unknownColumnsOr(err, [patch], model),
    plan: async (batch: BatchPlan) => {
      const { data } = batch;
      checkColumns([patch], data, { update: true });
      const row = currentRow(data, rowId, ifMatch);
      // An If-Match on a row the batch already updates is checked against the row that update leaves,
      // and an update guarded by one is checked against what only it changed: no other part may
      // touch its row in the same batch. Otherwise updates of one row share the batch: Google
      // applies them in order, as one after the other.
      if (batch.rows.has(row.rowNumber) && (ifMatch !== null || batch.guarded.has(row.rowNumber))) return WAIT;
      batch.rows.add(row.rowNumber);
      if (ifMatch !== null) batch.guarded.add(row.rowNumber);
      // Only the named cells are written: a concurrent update of other fields survives.
      const updates = data.columns.filter((c) => c.name in patch);
      return {
        requests: asEntered(
          sheet,
          updates.map((col) => ({ updateCells: { start: { sheetId: model.gid, rowIndex: row.rowNumber - 1, columnIndex: col.index }, rows: [{ values: [cellData(patch[col.name]!)] }], fields: "userEnteredValue" } })),
        ),
        unknown: (writeId: number) =>
          new OutcomeUnknown(
            `Google Sheets did not confirm the update of row ${rowId} in time; the outcome is unknown (it may still apply, but never after a later write to this tab: those wait until it is settled). Check with ${rowApi(sheet, model.name, rowId)} before retrying.`,
            writeId,
          ),
        answer: ({ grid }) => {
          // The row as the sheet now shows it (its number formats applied), read back in the write's
          // own answer: the body and ETag are what the next read returns. A write settled after a
          // timeout has no answer; then the row is given as written.
          const shown = grid ? (grid[row.rowNumber - 1]?.values ?? []) : undefined;
          const before = row.cells;
          const cells = data.columns.map((c, i) => (shown ? (shown[c.index]?.formattedValue ?? "") : c.name in patch ? displayed(patch[c.name]!) : before[i]!));
          // Cells holding formulas may show a new value on any read (NOW(), RAND()): not a sign of another row.
          const formulas = data.columns.filter((c) => shown?.[c.index]?.userEnteredValue?.formulaValue !== undefined).map((c) => c.name);
          const conflict = landedElsewhere(data, row, rowId, before, cells, shown !== undefined, ifMatch !== null, new Set([...Object.keys(patch), ...formulas]));
          // Someone edited the sheet between the tab's read and Google applying the write. Google
          // has no conditional write to prevent it; the row read back in the write's own answer
          // shows it, and the client is told, never a 200.
          if (conflict) throw new ApiError("conflict", `The sheet was edited while this update was applied: ${conflict} Check the row in the sheet.`);
          const updated = { ...row, cells };
          return { result: { row: rowToJson(data, updated), etag: rowEtag(data, updated) }, events: { updated } };
        },
      };
    },
  });
}

// --- Delete ------------------------------------------------------------------------------------

/**
 * Google refuses to delete a grid's last rows below a frozen header ("not possible to delete all
 * non-frozen rows"), refusing the whole batch; the same batch with a blank row appended first
 * leaves the grid as the Sheets UI would: header and one blank row.
 */
export const refusesDeletingEveryRow = (err: unknown) => err instanceof ApiError && /delete all non-frozen rows|delete all the rows/.test(err.message);
export const appendBlankRow = (gid: number) => ({ appendDimension: { sheetId: gid, dimension: "ROWS", length: 1 } });

export async function deleteRow(sheet: WriteSheet, model: TabModel, rowId: string, { ifMatch = null }: { ifMatch?: string | null } = {}): Promise<string> {
  requireWritable(sheet);
  await queueWrite(sheet, model, DELETE, {
    plan: async (batch: BatchPlan) => {
      const row = currentRow(batch.data, rowId, ifMatch);
      return {
        requests: [{ deleteDimension: { range: { sheetId: model.gid, dimension: "ROWS", startIndex: row.rowNumber - 1, endIndex: row.rowNumber } } }],
        unknown: (writeId: number) =>
          new OutcomeUnknown(
            `Google Sheets did not confirm the delete of row ${rowId} in time; the outcome is unknown (it may still apply, to this row only: later writes to this tab wait until it is settled). Check with ${rowApi(sheet, model.name, rowId)} before retrying.`,
            writeId,
          ),
        answer: () => ({ result: undefined, events: { deleted: row } }),
      };
    },
  });
  return `Row ${rowId} deleted from "${model.name}".`;
}
