// Row writes (DECISIONS 2, 4-7): validated before anything is written, values sent RAW, creates
// as one INSERT_ROWS append with ids from an atomic counter, updates of the named cells only,
// deletes of exactly the matching row. Updates, deletes and creates that bring their own ids
// take the tab's lock and locate their row on a fresh read; a write that may or may not have
// landed is checked in the sheet before any retry, and never made twice.
import { ApiError } from "@/lib/http/errors";
import { withLock } from "@/lib/limits/lock";
import { getLimitStore, writesPaused } from "@/lib/limits/store";
import { indexToColumn } from "./a1";
import { forgetModifiedTime } from "./change-check";
import { withGoogle } from "./google-access";
import { NOT_APPLIED, TRANSIENT } from "./google-retry";
import { quoteTab } from "./read-model";
import { cellValue, checkColumns, checkRowShape, displayed, rowsOfCreateBody, type RowInput } from "./row-input";
import { matchesAny } from "@/lib/http/conditional";
import { rowEtag, rowToJson, type JsonValue, type TabData, type TabRow } from "./rows";
import type { SheetRecord } from "./sheet-record";
import { fetchTab, invalidateSheetData, readTab } from "./tab-cache";
import type { TabModel } from "./tab-model";
import { errorFields, log } from "@/lib/log";

type WriteSheet = Pick<SheetRecord, "id" | "access" | "refreshTokenCiphertext" | "cacheTtlSeconds" | "writable">;

const lockKey = (sheetId: string, tab: string) => `sheetapi:lock:${sheetId}:${tab}`;
const idCounterKey = (sheetId: string, tab: string) => `sheetapi:ids:${sheetId}:${tab}`;
const ID_COUNTER_TTL_SECONDS = 7 * 24 * 3600;
/** How long a write Google did not confirm is given to show up before it is tried again. */
const LATE_WRITE_GRACE_MS = 1000;

function requireWritable(sheet: WriteSheet): void {
  if (sheet.writable) return;
  throw new ApiError(
    "forbidden",
    "This sheet is read-only for the service. To allow writes, share it with the service's Google account as Editor, or register it through /auth/google?sheet_url=<sheet_url>.",
  );
}

export function findRow(data: TabData, rowId: string): TabRow | undefined {
  return data.rows.find((r) => r.id === rowId);
}

function rowNotFound(data: TabData, rowId: string): ApiError {
  return new ApiError("not_found", `No row with id "${rowId}" in the tab "${data.tab}".`);
}

/** The row as found on a fresh read, checked against the client's If-Match (optimistic concurrency). */
function currentRow(data: TabData, rowId: string, ifMatch: string | null): TabRow {
  const row = findRow(data, rowId);
  if (!row) throw rowNotFound(data, rowId);
  if (ifMatch !== null && !matchesAny(ifMatch, rowEtag(data, row))) {
    throw new ApiError("precondition_failed", `Row ${rowId} changed since you read it (its ETag is now ${rowEtag(data, row)}); nothing was changed. Read it again and retry.`, {}, { ETag: rowEtag(data, row) });
  }
  return row;
}

/** Invalidation after a write; a failure is logged: the TTL still bounds staleness. */
async function afterWrite(sheetId: string): Promise<void> {
  // Our write moved the file's modifiedTime: the next read asks Drive again rather than tag its
  // copy with the time from before the write.
  forgetModifiedTime(sheetId);
  await invalidateSheetData(sheetId).catch((err: unknown) => log.warn({ sheet: sheetId, ...errorFields(err) }, "rows: cache invalidation failed"));
}

/** Failures after which Google may or may not have applied a write. */
const isAmbiguous = (err: unknown) => err instanceof ApiError && (err.code === "gateway_timeout" || err.code === "bad_gateway");

function uncertain(what: string): ApiError {
  return new ApiError(
    "gateway_timeout",
    `Google Sheets did not confirm the ${what}; it may or may not have been applied. Check the sheet before retrying.`,
  );
}

// --- Create ------------------------------------------------------------------------------------

function maxIntegerId(data: TabData): number {
  let max = 0;
  for (const row of data.rows) if (/^\d+$/.test(row.id)) max = Math.max(max, Number(row.id));
  return max;
}

async function assignIds(sheet: WriteSheet, data: TabData, rows: RowInput[]): Promise<string[]> {
  const taken = new Set(data.rows.map((r) => r.id));
  const seen = new Set<string>();
  const missing: number[] = [];
  const ids = rows.map((row, i) => {
    const given = row.id === null || row.id === undefined ? "" : String(row.id);
    if (given === "") {
      missing.push(i);
      return "";
    }
    if (taken.has(given) || seen.has(given)) throw new ApiError("conflict", `A row with id "${given}" already exists in "${data.tab}".`);
    seen.add(given);
    return given;
  });
  if (missing.length) {
    let last: number;
    try {
      last = await getLimitStore().allocate(idCounterKey(sheet.id, data.tab), Math.max(maxIntegerId(data), ...[...seen].filter((id) => /^\d+$/.test(id)).map(Number)), missing.length, ID_COUNTER_TTL_SECONDS);
    } catch {
      throw writesPaused("ids cannot be assigned while the coordination store is unreachable");
    }
    missing.forEach((rowIndex, k) => (ids[rowIndex] = String(last - missing.length + 1 + k)));
  }
  return ids;
}

function appendValues(data: TabData, rows: RowInput[], ids: string[]): (string | number | boolean)[][] {
  const width = Math.max(0, ...data.columns.map((c) => c.index)) + 1;
  return rows.map((row, i) => {
    const values: (string | number | boolean)[] = Array<string | number | boolean>(width).fill("");
    for (const c of data.columns) {
      if (c.name === "id" && data.hasIdColumn) values[c.index] = /^\d+$/.test(ids[i]!) ? Number(ids[i]) : ids[i]!;
      else if (c.name in row) values[c.index] = cellValue(row[c.name]!);
    }
    return values;
  });
}

function firstRowOf(updatedRange: string | null | undefined): number {
  const match = /!\D*(\d+)/.exec(updatedRange ?? "");
  if (!match) throw new ApiError("bad_gateway", "Google Sheets confirmed the write without saying where it landed.");
  return Number(match[1]);
}

export async function createRows(sheet: WriteSheet, model: TabModel, version: number | undefined, body: unknown) {
  requireWritable(sheet);
  const rows = rowsOfCreateBody(body);
  const bringsIds = rows.some((r) => r.id !== undefined && r.id !== null && r.id !== "");
  const run = async () => {
    // Own ids must be checked against the sheet as it is now; assigned ones come from the counter.
    const data = bringsIds ? await fetchTab(sheet, model) : (await readTab(sheet, model, version)).data;
    checkColumns(rows, data, { update: false });
    const ids = data.hasIdColumn ? await assignIds(sheet, data, rows) : [];
    const values = appendValues(data, rows, ids);
    const firstRow = await appendOnce(sheet, model, data, values, ids);
    return rows.map((row, i) => {
      const cells = data.columns.map((c) => (c.name === "id" && data.hasIdColumn ? ids[i]! : displayed(row[c.name] ?? null)));
      return rowToJson(data, { rowNumber: firstRow + i, id: data.hasIdColumn ? ids[i]! : String(firstRow + i), cells });
    });
  };
  const created = bringsIds ? await withLock(lockKey(sheet.id, model.name), run) : await run();
  await afterWrite(sheet.id);
  return { created: created.length, rows: created };
}

/** One append; on an ambiguous failure, the sheet is checked for the ids before trying again. */
async function appendOnce(sheet: WriteSheet, model: TabModel, data: TabData, values: (string | number | boolean)[][], ids: string[]): Promise<number> {
  const append = () =>
    withGoogle(
      sheet,
      (c) =>
        c.sheets.spreadsheets.values.append({
          spreadsheetId: sheet.id,
          range: `${quoteTab(model.name)}!A1`,
          valueInputOption: "RAW",
          insertDataOption: "INSERT_ROWS",
          requestBody: { values },
        }),
      NOT_APPLIED,
      { kind: "write" },
    );
  try {
    return firstRowOf((await append()).data.updates?.updatedRange);
  } catch (err) {
    if (!isAmbiguous(err)) throw err;
    if (!data.hasIdColumn) throw uncertain("new rows");
    // Did it land? An append is all or nothing, so the first id tells. A request Google is still
    // working on may land a moment later, so the sheet is checked twice before appending again.
    for (const waitMs of [0, LATE_WRITE_GRACE_MS]) {
      await new Promise((r) => setTimeout(r, waitMs));
      const landed = findRow(await fetchTab(sheet, model), ids[0]!);
      if (landed) return landed.rowNumber;
    }
    return firstRowOf((await append()).data.updates?.updatedRange);
  }
}

// --- Update ------------------------------------------------------------------------------------

export async function updateRow(sheet: WriteSheet, model: TabModel, rowId: string, body: unknown, { ifMatch = null }: { ifMatch?: string | null } = {}): Promise<{ row: Record<string, JsonValue>; etag: string }> {
  requireWritable(sheet);
  const patch = checkRowShape(body);
  if ("id" in patch) throw new ApiError("validation_error", "id cannot be changed: it identifies the row.");
  const result = await withLock(lockKey(sheet.id, model.name), async () => {
    const data = await fetchTab(sheet, model);
    checkColumns([patch], data, { update: true });
    const row = currentRow(data, rowId, ifMatch);
    const updates = data.columns.filter((c) => c.name in patch);
    // Only the named cells are written: a concurrent update of other fields survives.
    await withGoogle(
      sheet,
      (c) =>
        c.sheets.spreadsheets.values.batchUpdate({
          spreadsheetId: sheet.id,
          requestBody: {
            valueInputOption: "RAW",
            data: updates.map((col) => ({ range: `${quoteTab(model.name)}!${indexToColumn(col.index)}${row.rowNumber}`, values: [[cellValue(patch[col.name]!)]] })),
          },
        }),
      TRANSIENT,
      { kind: "write" },
    );
    const cells = data.columns.map((c, i) => (c.name in patch ? displayed(patch[c.name]!) : row.cells[i]!));
    // The ETag of the row as written; the sheet's own formatting may change it on the next read.
    return { row: rowToJson(data, { ...row, cells }), etag: rowEtag(data, { ...row, cells }) };
  });
  await afterWrite(sheet.id);
  return result;
}

// --- Delete ------------------------------------------------------------------------------------

export async function deleteRow(sheet: WriteSheet, model: TabModel, rowId: string, { ifMatch = null }: { ifMatch?: string | null } = {}): Promise<string> {
  requireWritable(sheet);
  await withLock(lockKey(sheet.id, model.name), async () => {
    const data = await fetchTab(sheet, model);
    const row = currentRow(data, rowId, ifMatch);
    const remove = () =>
      withGoogle(
        sheet,
        (c) =>
          c.sheets.spreadsheets.batchUpdate({
            spreadsheetId: sheet.id,
            requestBody: { requests: [{ deleteDimension: { range: { sheetId: model.gid, dimension: "ROWS", startIndex: row.rowNumber - 1, endIndex: row.rowNumber } } }] },
          }),
        // Never retried blindly: a second delete of the same index would remove the next row.
        NOT_APPLIED,
        { kind: "write" },
      );
    try {
      await remove();
    } catch (err) {
      if (!isAmbiguous(err)) throw err;
      if (!data.hasIdColumn) throw uncertain("delete");
      const now = await fetchTab(sheet, model);
      const still = findRow(now, rowId);
      if (!still) return;
      if (still.rowNumber !== row.rowNumber) throw uncertain("delete");
      await remove();
    }
  });
  await afterWrite(sheet.id);
  return `Row ${rowId} deleted from "${model.name}".`;
}
