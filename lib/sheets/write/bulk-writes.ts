// Writes that find their rows by value rather than by id (DECISIONS 5-7a hold for each): update
// or delete every row a filter matches, update many rows with different values found by a key
// column, and upsert by a key column. Each is one step under the tab's lock, on any instance: the
// earlier writes are settled, the tab is read as it is now, every row is found and checked (the
// filter's `limit`, If-Match), and then one guarded batchUpdate does all of it, or nothing is
// written. A filtered write needs a filter and changes at most `limit` rows (default 1: a filter
// meant for one row that matches several changes nothing); `dry_run=true` answers what it would
// match without writing.
import type { sheets_v4 } from "@googleapis/sheets";
import { matchesAny } from "@/lib/http/conditional";
import { ApiError, OutcomeUnknown, quoted } from "@/lib/errors";
import { comparableTarget, comparableValue, equalsByValue } from "@/lib/sheets/values/cell-values";
import { applyQuery, parseBoolean, parseListQuery, queryColumns } from "@/lib/sheets/read/query";
import { checkSingle } from "@/lib/http/query-params";
import { checkParams } from "@/lib/sheets/read/query-params";
import { checkColumns, checkRowShape, displayed, rowsOfCreateBody, type RowInput } from "./row-input";
import { appendBlankRow, assignIds, cellData, newRowCells, refusesDeletingEveryRow, requireWritable, underTabLock, type WriteSheet } from "./row-writes";
import { rowEtag, rowToJson, type JsonValue, type TabData, type TabRow } from "@/lib/sheets/values/rows";
import { recordApiWrite } from "@/lib/webhooks/changes";
import { quoteTab } from "@/lib/sheets/read/read-model";
import { fetchTab } from "@/lib/sheets/read/tab-cache";
import { filtersOnDates } from "@/lib/sheets/read/date-values";
import { columnValues } from "@/lib/sheets/read/tab-index";
import type { TabModel } from "@/lib/sheets/values/tab-model";
import { asEntered, idColumnOf } from "./value-input";
import { guardedWrite, markerRequest, outcomeOf, type SheetsRequest } from "./write-guard";

export const MAX_ROWS_PER_WRITE = 1000;
const bad = (message: string) => new ApiError("validation_error", message);

export interface WriteOptions {
  ifMatch?: string | null;
  /** An earlier request with the same Idempotency-Key whose write had an unknown outcome. */
  earlierWrite?: number;
  idempotencyKey?: string;
}

type Json = Record<string, JsonValue>;
export type EarlierLanded = "earlier-landed";

const retryHint = (o: WriteOptions) =>
  o.idempotencyKey ? "Send the same request again with the same Idempotency-Key: it will not be applied twice." : "Read the rows before retrying (an Idempotency-Key lets a retry settle this for you).";

// --- Finding rows --------------------------------------------------------------------------------

interface Scope {
  rows: TabRow[];
  limit: number;
  dryRun: boolean;
  describe: string;
}

/**
 * What a filtered write's parameters say without the tab: checked before anything is read from
 * Google, so a request that can never succeed answers 400 at no cost of quota.
 */
function checkScopeParams(params: URLSearchParams): { filter: string; or: string[]; limitText: string | null } {
  checkParams(params, ["filter", "or", "limit", "dry_run"]);
  // A second value must not win or lose in silence: `dry_run=false&dry_run=true` would delete.
  checkSingle(params, ["limit", "dry_run"]);
  const filter = params.getAll("filter").filter(Boolean).join(",");
  const or = params.getAll("or").filter(Boolean);
  if (!filter && !or.length) {
    throw bad("A filter is required: PATCH and DELETE on a tab change the rows ?filter= matches (e.g. ?filter=email=ada@example.com). To change one row by its id, use /{tabName}/{rowId}.");
  }
  const limitText = params.get("limit");
  if (limitText !== null && (!/^\d+$/.test(limitText) || Number(limitText) < 1 || Number(limitText) > MAX_ROWS_PER_WRITE)) {
    throw bad(`limit must be an integer from 1 to ${MAX_ROWS_PER_WRITE}: the most rows this request may change; got ${quoted(limitText)}.`);
  }
  parseBoolean("dry_run", params.get("dry_run"));
  return { filter, or, limitText };
}

/** `filter` (and `or`) of a filtered write, read as a list reads them; `limit` and `dry_run`. */
function scopeOf(params: URLSearchParams, data: TabData): Scope {
  const { filter, or, limitText } = checkScopeParams(params);
  const query = parseListQuery(new URLSearchParams([...params].filter(([name]) => name === "filter" || name === "or")), queryColumns(data));
  const { rows } = applyQuery(data, { ...query, limit: data.rows.length, offset: 0 });
  return { rows, limit: limitText === null ? 1 : Number(limitText), dryRun: parseBoolean("dry_run", params.get("dry_run")), describe: [filter && `filter=${filter}`, ...or.map((o) => `or=${o}`)].filter(Boolean).join("&") };
}

function checkLimit(scope: Scope): void {
  if (scope.rows.length <= scope.limit) return;
  throw new ApiError(
    "conflict",
    `${scope.rows.length} rows match ${quoted(scope.describe)}, more than limit=${scope.limit}; nothing was changed. Check them with GET and the same filter (or dry_run=true), then send limit=${Math.min(scope.rows.length, MAX_ROWS_PER_WRITE)} if they are all meant.`,
  );
}

/** With If-Match (the ETags of the client's reads), every row about to change must still be as read. */
function checkIfMatch(data: TabData, rows: TabRow[], ifMatch: string | null | undefined): void {
  if (ifMatch === null || ifMatch === undefined) return;
  const changed = rows.find((r) => !matchesAny(ifMatch, rowEtag(data, r)));
  if (!changed) return;
  throw new ApiError("precondition_failed", `Row ${changed.id} is not as you read it (its ETag is now ${rowEtag(data, changed)}; If-Match must list the ETag of every row the request changes); nothing was changed. Read again and retry.`, {}, { ETag: rowEtag(data, changed) });
}

/** Rows by the value of a key column: as displayed, and by value in number and date columns (`sku=12` finds "12.00"). */
function keyIndex(data: TabData, key: string) {
  const at = data.columns.findIndex((c) => c.name === key);
  const column = data.columns[at] ?? { name: key, type: "number" as const };
  const byValueToo = equalsByValue(column);
  const byText = new Map<string, TabRow[]>();
  const byValue = new Map<number, TabRow[]>();
  const add = <K>(map: Map<K, TabRow[]>, k: K, row: TabRow) => map.set(k, [...(map.get(k) ?? []), row]);
  const values = columnValues(data, key);
  for (const [i, row] of data.rows.entries()) {
    const text = values.distinct[values.ids[i]!]!;
    add(byText, text, row);
    const n = byValueToo ? comparableValue(text, column, data.where, row.serials?.[at]) : undefined;
    if (n !== undefined) add(byValue, n, row);
  }
  return (value: string): TabRow[] => {
    const found = byText.get(value);
    if (found) return found;
    const n = byValueToo ? comparableTarget(value, column, data.where) : undefined;
    return n === undefined ? [] : (byValue.get(n) ?? []);
  };
}

function keyColumn(params: URLSearchParams, name: string, data: TabData, { creates }: { creates: boolean }): string {
  const key = params.get(name) ?? "id";
  if (!queryColumns(data).includes(key)) throw bad(`Unknown ${name} column ${quoted(key)}. Columns: ${queryColumns(data).join(", ")}.`);
  if (creates && key === "id" && !data.hasIdColumn) throw bad(`The tab "${data.tab}" has no id column: upsert by one of its columns (?${name}=column).`);
  return key;
}

/** Each body row's key value, required and distinct. */
function keysOf(rows: RowInput[], key: string): string[] {
  const seen = new Set<string>();
  return rows.map((row, i) => {
    const v = row[key];
    if (v === undefined || v === null || v === "") throw bad(`Row ${i + 1} of the body has no ${quoted(key)}: it is the key that finds the row.`);
    const text = displayed(v);
    if (seen.has(text)) throw bad(`${quoted(key)} ${quoted(text)} appears twice in the body: each row is written once.`);
    seen.add(text);
    return text;
  });
}

function uniqueMatch(data: TabData, find: (v: string) => TabRow[], key: string, value: string): TabRow | undefined {
  const found = find(value);
  if (found.length > 1) throw new ApiError("conflict", `${found.length} rows of "${data.tab}" have ${key} ${quoted(value)} (ids ${found.map((r) => r.id).join(", ")}): a key must find one row. Nothing was changed.`);
  return found[0];
}

// --- Requests ------------------------------------------------------------------------------------

/** One updateCells per named cell: cells the body does not name are never touched. */
function cellUpdates(data: TabData, model: TabModel, row: TabRow, patch: RowInput): SheetsRequest[] {
  return data.columns
    .filter((c) => c.name in patch)
    .map((col) => ({ updateCells: { start: { sheetId: model.gid, rowIndex: row.rowNumber - 1, columnIndex: col.index }, rows: [{ values: [cellData(patch[col.name]!)] }], fields: "userEnteredValue" } }));
}

function patched(data: TabData, row: TabRow, patch: RowInput): TabRow {
  const cells = row.cells;
  return { ...row, cells: data.columns.map((c, i) => (c.name in patch ? displayed(patch[c.name]!) : cells[i]!)) };
}

/** Bottom-up, contiguous rows merged: each deleteDimension's range stays valid after the ones before it. */
function rowDeletes(model: TabModel, rows: TabRow[]): SheetsRequest[] {
  const numbers = [...new Set(rows.map((r) => r.rowNumber))].sort((a, b) => b - a);
  const ranges: [number, number][] = [];
  for (const n of numbers) {
    const last = ranges.at(-1);
    if (last && last[0] === n + 1) last[0] = n;
    else ranges.push([n, n]);
  }
  return ranges.map(([from, to]) => ({ deleteDimension: { range: { sheetId: model.gid, dimension: "ROWS", startIndex: from - 1, endIndex: to } } }));
}

/** Contiguous row numbers as A1 row ranges (`'Tab'!4:6`). */
function rowRanges(model: TabModel, rowNumbers: number[]): string[] {
  const sorted = [...new Set(rowNumbers)].sort((a, b) => a - b);
  const ranges: [number, number][] = [];
  for (const n of sorted) {
    const last = ranges.at(-1);
    if (last && last[1] === n - 1) last[1] = n;
    else ranges.push([n, n]);
  }
  return ranges.map(([from, to]) => `${quoteTab(model.name)}!${from}:${to}`);
}

/**
 * Sends the requests and the write's marker as one guarded batch; the rows numbered `readBack`
 * come back as the sheet now shows them (number formats applied), so answers and ETags are what
 * the next read gives. A write settled after a timeout has no answer: then rows are as written.
 */
async function send(sheet: WriteSheet, model: TabModel, kind: string, requests: SheetsRequest[], unknown: (writeId: number) => OutcomeUnknown, { location = { sheetId: model.gid }, readBack = [], idColumn }: { location?: sheets_v4.Schema$DeveloperMetadataLocation; readBack?: number[]; idColumn?: number } = {}): Promise<Map<number, string[]>> {
  const { updated } = await guardedWrite(sheet, model, kind, (writeId) => asEntered(sheet, [...requests, markerRequest(writeId, kind, location)], idColumn), unknown, { readBack: rowRanges(model, readBack) });
  const shown = new Map<number, string[]>();
  for (const tab of updated?.sheets ?? []) {
    for (const grid of tab.data ?? []) grid.rowData?.forEach((r, k) => shown.set((grid.startRow ?? 0) + k + 1, (r.values ?? []).map((v) => v.formattedValue ?? "")));
  }
  return shown;
}

/** A row as the sheet shows it after the write, when read back; else as written. */
function asShown(data: TabData, row: TabRow, shown: Map<number, string[]>): TabRow {
  const cells = shown.get(row.rowNumber);
  return cells ? { ...row, cells: data.columns.map((c) => cells[c.index] ?? "") } : row;
}

// --- Filtered update and delete ------------------------------------------------------------------

export interface UpdateResult {
  matched: number;
  updated: number;
  dry_run: boolean;
  rows: Json[];
  etags: string[];
}

const updateAnswer = (data: TabData, updated: number, rows: TabRow[]): UpdateResult => ({ matched: rows.length, updated, dry_run: false, rows: rows.map((r) => rowToJson(data, r)), etags: rows.map((r) => rowEtag(data, r)) });

/** PATCH /{tab}?filter=: the body's cells written to every matching row. */
export async function updateWhere(sheet: WriteSheet, model: TabModel, params: URLSearchParams, body: unknown, opts: WriteOptions = {}): Promise<UpdateResult | EarlierLanded> {
  requireWritable(sheet);
  checkScopeParams(params);
  const patch = checkRowShape(body);
  if ("id" in patch) throw bad("id cannot be changed: it identifies the row.");
  const plan = (data: TabData) => {
    checkColumns([patch], data, { update: true });
    return scopeOf(params, data);
  };
  const dates = filtersOnDates(params, model);
  const preview = async () => {
    const data = await fetchTab(sheet, model, { dates });
    const scope = plan(data);
    return scope.dryRun ? { matched: scope.rows.length, updated: 0, dry_run: true, rows: scope.rows.map((r) => rowToJson(data, r)), etags: scope.rows.map((r) => rowEtag(data, r)) } : undefined;
  };
  if (parseBoolean("dry_run", params.get("dry_run"))) return (await preview())!;
  return underTabLock(sheet, model, async () => {
    if (opts.earlierWrite !== undefined && (await outcomeOf(sheet.id, opts.earlierWrite))) return "earlier-landed";
    const data = await fetchTab(sheet, model, { dates });
    const scope = plan(data);
    checkLimit(scope);
    checkIfMatch(data, scope.rows, opts.ifMatch);
    const after = scope.rows.map((r) => patched(data, r, patch));
    const answer = updateAnswer(data, scope.rows.length, after);
    if (!scope.rows.length) return answer;
    const shown = await send(sheet, model, "update", scope.rows.flatMap((r) => cellUpdates(data, model, r, patch)), (writeId) =>
      new OutcomeUnknown(`Google Sheets did not confirm the update of ${scope.rows.length} row(s) (ids ${scope.rows.map((r) => r.id).join(", ")}) in time; the outcome is unknown (it applies whole or not at all, and never after a later write to this tab). ${retryHint(opts)}`, writeId, answer),
    { readBack: scope.rows.map((r) => r.rowNumber) });
    const result = after.map((r) => asShown(data, r, shown));
    await recordApiWrite(sheet.id, data, { updated: result });
    return updateAnswer(data, scope.rows.length, result);
  });
}

export interface DeleteResult {
  matched: number;
  deleted: number;
  dry_run: boolean;
  ids: string[];
  etags: string[];
}

/** DELETE /{tab}?filter=: every matching row removed, in one batch. */
export async function deleteWhere(sheet: WriteSheet, model: TabModel, params: URLSearchParams, opts: WriteOptions = {}): Promise<DeleteResult | EarlierLanded> {
  requireWritable(sheet);
  checkScopeParams(params);
  const describe = (data: TabData, scope: Scope, deleted: number): DeleteResult => ({ matched: scope.rows.length, deleted, dry_run: scope.dryRun, ids: scope.rows.map((r) => r.id), etags: scope.rows.map((r) => rowEtag(data, r)) });
  const dates = filtersOnDates(params, model);
  if (parseBoolean("dry_run", params.get("dry_run"))) {
    const data = await fetchTab(sheet, model, { dates });
    return describe(data, scopeOf(params, data), 0);
  }
  return underTabLock(sheet, model, async () => {
    if (opts.earlierWrite !== undefined && (await outcomeOf(sheet.id, opts.earlierWrite))) return "earlier-landed";
    const data = await fetchTab(sheet, model, { dates });
    const scope = scopeOf(params, data);
    checkLimit(scope);
    checkIfMatch(data, scope.rows, opts.ifMatch);
    const answer = describe(data, scope, scope.rows.length);
    if (!scope.rows.length) return answer;
    const remove = (growFirst: boolean) =>
      send(sheet, model, "delete", [...(growFirst ? [appendBlankRow(model.gid)] : []), ...rowDeletes(model, scope.rows)], (writeId) =>
        new OutcomeUnknown(`Google Sheets did not confirm the delete of ${scope.rows.length} row(s) (ids ${answer.ids.join(", ")}) in time; the outcome is unknown (it applies whole or not at all, to these rows only). ${retryHint(opts)}`, writeId, answer),
      );
    // Every row under a frozen header: Google wants a row left, so a blank one is added in the same batch.
    await remove(false).catch((err: unknown) => (refusesDeletingEveryRow(err) ? remove(true) : Promise.reject(err)));
    await recordApiWrite(sheet.id, data, { deleted: scope.rows });
    return answer;
  });
}

// --- Bulk update and upsert by key ---------------------------------------------------------------

function bodyRows(body: unknown, what: string): RowInput[] {
  if (!Array.isArray(body)) throw bad(`${what} takes an array of rows.`);
  if (body.length > MAX_ROWS_PER_WRITE) throw bad(`At most ${MAX_ROWS_PER_WRITE} rows can be written in one request; got ${body.length}.`);
  return rowsOfCreateBody(body);
}

/** PATCH /{tab} with an array: each item finds its row by `key` (default id) and changes its other named cells. */
export async function updateEach(sheet: WriteSheet, model: TabModel, params: URLSearchParams, body: unknown, opts: WriteOptions = {}): Promise<UpdateResult | EarlierLanded> {
  requireWritable(sheet);
  checkParams(params, ["key"]);
  checkSingle(params, ["key"]);
  const items = bodyRows(body, "A bulk update");
  return underTabLock(sheet, model, async () => {
    if (opts.earlierWrite !== undefined && (await outcomeOf(sheet.id, opts.earlierWrite))) return "earlier-landed";
    const data = await fetchTab(sheet, model);
    const key = keyColumn(params, "key", data, { creates: false });
    const keys = keysOf(items, key);
    const patches = items.map((item) => Object.assign(Object.create(null) as RowInput, Object.fromEntries(Object.entries(item).filter(([name]) => name !== key))));
    patches.forEach((p, i) => {
      if (!Object.keys(p).length) throw bad(`Row ${i + 1} of the body names only its key: name a column to change.`);
    });
    checkColumns(patches, data, { update: true });
    const find = keyIndex(data, key);
    const targets = keys.map((value) => {
      const row = uniqueMatch(data, find, key, value);
      if (!row) throw new ApiError("not_found", `No row of "${data.tab}" has ${key} ${quoted(value)}; nothing was changed.`);
      return row;
    });
    if (new Set(targets).size !== targets.length) throw bad("Two rows of the body find the same row of the sheet: each row is written once.");
    checkIfMatch(data, targets, opts.ifMatch);
    const after = targets.map((r, i) => patched(data, r, patches[i]!));
    const answer = updateAnswer(data, targets.length, after);
    const shown = await send(sheet, model, "update", targets.flatMap((r, i) => cellUpdates(data, model, r, patches[i]!)), (writeId) =>
      new OutcomeUnknown(`Google Sheets did not confirm the update of ${targets.length} row(s) in time; the outcome is unknown (it applies whole or not at all, and never after a later write to this tab). ${retryHint(opts)}`, writeId, answer),
    { readBack: targets.map((r) => r.rowNumber) });
    const result = after.map((r) => asShown(data, r, shown));
    await recordApiWrite(sheet.id, data, { updated: result });
    return updateAnswer(data, targets.length, result);
  });
}

export interface UpsertResult {
  created: number;
  updated: number;
  rows: Json[];
}

/**
 * POST /{tab}?upsert=column: each body row whose key matches a row of the tab updates that row's
 * named cells; the others are appended after the tab's last row (with ids as creates get them).
 */
export async function upsertRows(sheet: WriteSheet, model: TabModel, keyName: string, body: unknown, opts: WriteOptions = {}): Promise<UpsertResult | EarlierLanded> {
  requireWritable(sheet);
  const rows = rowsOfCreateBody(body);
  return underTabLock(sheet, model, async () => {
    if (opts.earlierWrite !== undefined && (await outcomeOf(sheet.id, opts.earlierWrite))) return "earlier-landed";
    const data = await fetchTab(sheet, model);
    const key = keyColumn(new URLSearchParams({ upsert: keyName }), "upsert", data, { creates: true });
    const keys = keysOf(rows, key);
    checkColumns(rows, data, { update: false });
    const find = keyIndex(data, key);
    const targets = keys.map((value) => uniqueMatch(data, find, key, value));
    const existing = rows.flatMap((row, i) => {
      const target = targets[i];
      if (!target) return [];
      if (key !== "id" && "id" in row && displayed(row.id!) !== target.id) throw bad(`Row ${i + 1} of the body would change the id of row ${target.id}: id cannot be changed.`);
      return [{ i, row: target, patch: Object.assign(Object.create(null) as RowInput, Object.fromEntries(Object.entries(row).filter(([name]) => name !== key && name !== "id"))) }];
    });
    const fresh = rows.flatMap((row, i) => (targets[i] ? [] : [{ i, row }]));
    checkIfMatch(data, existing.map((e) => e.row), opts.ifMatch);
    const ids = data.hasIdColumn && fresh.length ? await assignIds(sheet, model, data, fresh.map((f) => f.row)) : [];
    const at = data.lastRowNumber;
    const written: TabRow[] = new Array(rows.length);
    for (const e of existing) written[e.i] = patched(data, e.row, e.patch);
    fresh.forEach((f, k) => {
      const rowNumber = at + 1 + k;
      const id = data.hasIdColumn ? ids[k]! : String(rowNumber);
      written[f.i] = { rowNumber, id, cells: data.columns.map((c) => (c.name === "id" && data.hasIdColumn ? id : displayed(f.row[c.name] ?? null))) };
    });
    const answerOf = (shown: Map<number, string[]>): UpsertResult => ({ created: fresh.length, updated: existing.length, rows: written.map((r) => rowToJson(data, asShown(data, r, shown))) });
    const answer = answerOf(new Map());
    const range = { sheetId: model.gid, dimension: "ROWS", startIndex: at, endIndex: at + fresh.length };
    const requests: SheetsRequest[] = [
      ...existing.flatMap((e) => cellUpdates(data, model, e.row, e.patch)),
      ...(fresh.length
        ? [
            { insertDimension: { range, inheritFromBefore: at > 1 } },
            { updateCells: { start: { sheetId: model.gid, rowIndex: at, columnIndex: 0 }, rows: newRowCells(data, fresh.map((f) => f.row), ids), fields: "userEnteredValue" } },
          ]
        : []),
    ];
    if (!requests.length) return answer;
    const shown = await send(
      sheet,
      model,
      "upsert",
      requests,
      (writeId) => new OutcomeUnknown(`Google Sheets did not confirm the upsert of ${rows.length} row(s) in time; the outcome is unknown (it applies whole or not at all, once). ${retryHint(opts)}`, writeId, answer),
      { location: fresh.length ? { dimensionRange: range } : { sheetId: model.gid }, readBack: written.map((r) => r.rowNumber), idColumn: idColumnOf(data) },
    );
    const result = answerOf(shown);
    await recordApiWrite(sheet.id, data, { updated: existing.map((e) => asShown(data, written[e.i]!, shown)), created: fresh.map((f) => result.rows[f.i]!) });
    return result;
  });
}
