// The read side of the rows API: find the tab, serve its rows from cache, query them.
import { cachedAnswer, type Answer } from "@/lib/http/answer-cache";
import { etagOf, etagOfText } from "@/lib/http/conditional";
import { okText } from "@/lib/http/envelope";
import { ApiError, quoted } from "@/lib/errors";
import { acceptedFormat, type ReadFormat } from "@/lib/http/negotiate";
import { aggregate, filtersOf, parseAggregate, parseDistinct } from "./aggregate";
import { csvStream } from "./csv";
import { checkParams } from "./query-params";
import {
  applyQuery,
  conditionsOf,
  MAX_CSV_ROWS,
  parseBoolean,
  parseListQuery,
  parseSelect,
  queryColumns,
} from "./query";
import { decideAll } from "./query-cost";
import { rowEtag, rowToJson } from "@/lib/sheets/values/rows";
import { findRow } from "@/lib/sheets/read/tab-index";
import { getSheetModel, refreshSheetModel } from "@/lib/sheets/read/schema";
import type { SheetRecord } from "@/lib/sheets/sheet-record";
import { scopedData, tabInScope, type ReadScope } from "./read-scope";
import { formulasOf, formulasRefused, type Formulas } from "./formula-values";
import { nothingWritten, readTab, tabDataVersion, withDates, type CacheStatus } from "./tab-cache";
import type { TabModel } from "@/lib/sheets/values/tab-model";
import { isDateType } from "@/lib/sheets/values/cell-values";
import type { ListQuery } from "./query";
import type { TabData } from "@/lib/sheets/values/rows";

/** `typed` in the address: the read needs the date columns' serial numbers, asked for beside the values. */
const typedAsked = (params: URLSearchParams) => ["true", "1", ""].includes(params.get("typed") ?? "false");

/** Whether answering the query reads dates by value: typed values, or a date column filtered or sorted on. */
function readsDates(
  data: TabData,
  query: Pick<ListQuery, "typed" | "filters" | "anyOf" | "sort" | "thenBy">,
  extra: string[] = [],
): boolean {
  if (query.typed) return true;
  const named = new Set([
    ...query.filters.map((c) => c.column),
    ...query.anyOf.flat().map((c) => c.column),
    ...(query.sort ? [query.sort] : []),
    ...query.thenBy.map((k) => k.column),
    ...extra,
  ]);
  return data.columns.some((c) => isDateType(c.type) && named.has(c.name));
}

/** The tab a write names: a Google failure while finding it is before anything was sent. */
export async function findWriteTab(sheet: SheetRecord, tabName: string): Promise<TabModel> {
  try {
    return await findTab(sheet, tabName);
  } catch (err) {
    throw nothingWritten(err);
  }
}

/**
 * The tab named in the path, case-sensitive; models stored before tab ids or locales were kept are
 * re-read. `scope`: a browser key's tabs; the others are not found, and not named.
 */
export async function findTab(sheet: SheetRecord, tabName: string, scope?: ReadScope): Promise<TabModel> {
  let model = await getSheetModel(sheet);
  if (model.tabs.some((t) => typeof t.gid !== "number" || t.locale === undefined))
    model = await refreshSheetModel(sheet);
  const tab = model.tabs.find((t) => t.name === tabName && tabInScope(scope, t.name));
  if (!tab) {
    const visible = model.tabs.filter((t) => tabInScope(scope, t.name)).map((t) => t.name);
    throw new ApiError(
      "not_found",
      scope?.tabs
        ? `No tab named ${quoted(tabName)} that this browser key can read (names are case-sensitive). Tabs it can read: ${visible.join(", ") || "none"}.`
        : `No tab named ${quoted(tabName)} in this sheet (names are case-sensitive). Tabs: ${visible.join(", ")}. A tab added since the last schema refresh appears after POST /api/{sheetId}/refresh-schema.`,
    );
  }
  return tab;
}

/** How a read is served: `fresh` re-reads the sheet; `scope` limits a browser key's columns; `formulas`: the key may read formulas. */
export interface ReadOptions {
  fresh?: boolean;
  scope?: ReadScope;
  formulas?: boolean;
}

/** `?formulas=true`, checked against the key before anything is read: 403 when its owner did not allow it. */
function formulasAsked(params: URLSearchParams, options: ReadOptions): boolean {
  const asked = parseBoolean("formulas", params.get("formulas"));
  if (asked && !options.formulas) throw formulasRefused();
  return asked;
}

/** The formulas of the copy a read was served from, when asked for. */
const formulasFor = (sheet: SheetRecord, read: { whole: TabData }, asked: boolean) =>
  asked ? formulasOf(sheet, read.whole) : Promise.resolve(undefined);

/**
 * The tab's rows from the cache, as the key may see them; `dates`: with the date columns' serial
 * numbers. When the read fails (Google unavailable, the quota guard shut), `precheck` parses the
 * query without the tab's columns first: a query that could never be answered gets its 400, not
 * the read's 503. Only then, so a served read parses its query once.
 */
async function readScoped(
  sheet: SheetRecord,
  tab: TabModel,
  version: number | undefined,
  { fresh = false, scope }: ReadOptions,
  dates: boolean,
  precheck: () => unknown,
) {
  let read;
  try {
    read = await readTab(sheet, tab, version, { fresh, dates });
  } catch (err) {
    precheck();
    throw err;
  }
  return { data: scopedData(read.data, scope), cache: read.cache, whole: read.data };
}

/** What a row read's query says without the tab's columns. */
const rowPrecheck = (params: URLSearchParams) => () => {
  parseBoolean("typed", params.get("typed"));
  parseSelect(params.get("select"), null);
};

/** The read with its date columns' serial numbers, when its query turns out to compare dates by value. */
async function datedIf(
  sheet: SheetRecord,
  tab: TabModel,
  read: Awaited<ReturnType<typeof readScoped>>,
  needed: boolean,
  { scope }: ReadOptions,
) {
  return needed ? { ...read, data: scopedData(await withDates(sheet, tab, read.whole), scope) } : read;
}

/**
 * The tab a read names, the format it asks for (`Accept: text/csv`, or `.csv` after the tab name
 * for tools that cannot set headers; a tab whose own name ends in `.csv` is that tab, as JSON), and
 * the tab's data version. `version`: the one the request came with, read under the path's name;
 * for `Items.csv` that is no tab's, so Items' own is read: with another version the read would
 * load a copy of its own and push out the JSON reads' one (a Google call each, both ways).
 */
export async function findReadTab(
  sheet: SheetRecord,
  tabName: string,
  accept: string | null,
  scope: ReadScope | undefined,
  version: number | undefined,
): Promise<{ tab: TabModel; format: ReadFormat; version: number | undefined }> {
  try {
    return { tab: await findTab(sheet, tabName, scope), format: acceptedFormat(accept), version };
  } catch (err) {
    const named = /^(.+)\.csv$/i.exec(tabName)?.[1];
    if (!named || !(err instanceof ApiError) || err.code !== "not_found") throw err;
    const tab = await findTab(sheet, named, scope).catch(() => Promise.reject(err));
    return { tab, format: "csv", version: await tabDataVersion(sheet.id, tab.name) };
  }
}

export async function listRows(
  sheet: SheetRecord,
  tab: TabModel,
  version: number | undefined,
  params: URLSearchParams,
  options: ReadOptions = {},
) {
  const asked = formulasAsked(params, options);
  const read = await readScoped(sheet, tab, version, options, typedAsked(params), () => parseListQuery(params, null));
  return {
    cache: read.cache,
    readAt: read.data.readAt,
    ...(await queryRows(sheet, tab, read, params, options, asked)),
  };
}

/** The page of rows the query asks for, with its meta (reading the dates' serial numbers when it compares dates; the formulas when `formulas`). */
async function queryRows(
  sheet: SheetRecord,
  tab: TabModel,
  read: Awaited<ReturnType<typeof readScoped>>,
  params: URLSearchParams,
  options: ReadOptions,
  formulas: boolean,
) {
  const query = parseListQuery(params, queryColumns(read.data));
  const { data } = await datedIf(sheet, tab, read, readsDates(read.data, query), options);
  const { rows, total } = applyQuery(data, query, await decideAll(data, conditionsOf(query)));
  const view = { ...query, formulas: await formulasFor(sheet, read, formulas) };
  return {
    rows: rows.map((r) => rowToJson(data, r, view)),
    meta: { total, limit: query.limit, offset: query.offset, returned: rows.length },
  };
}

/** What a served read answers: the body as sent (one serialization, kept with the copy) and where it came from. */
export interface ReadAnswer extends Answer {
  cache: CacheStatus;
  readAt: number;
}

/**
 * The list as the API sends it: the envelope's text and its ETag (of that text), kept with the
 * copy (as the key may see it) per query, so the same query of the same copy is answered as sent
 * before, without querying or serializing again.
 */
/** A list read as the route asks it: the tab, the data version it was asked at, the query and the key's allowances. */
export interface ListRequest {
  sheet: SheetRecord;
  tab: TabModel;
  version: number | undefined;
  params: URLSearchParams;
  options?: ReadOptions;
}

export async function listAnswer({ sheet, tab, version, params, options = {} }: ListRequest): Promise<ReadAnswer> {
  // Checked before a kept answer is looked up: a key without the allowance never gets one.
  const asked = formulasAsked(params, options);
  const read = await readScoped(sheet, tab, version, options, typedAsked(params), () => parseListQuery(params, null));
  const answer = await cachedAnswer(read.data, `list\u0000${params}`, async () => {
    const { rows, meta } = await queryRows(sheet, tab, read, params, options, asked);
    const text = okText({ data: rows, meta });
    return { text, etag: etagOfText(text) };
  });
  return { ...answer, cache: read.cache, readAt: read.data.readAt };
}

/** The same query as CSV: up to MAX_CSV_ROWS rows (all by default), columns as the JSON rows have them. */
export async function listCsv({ sheet, tab, version, params, options = {} }: ListRequest) {
  const asked = formulasAsked(params, options);
  const read = await readScoped(sheet, tab, version, options, typedAsked(params), () =>
    parseListQuery(params, null, { maxLimit: MAX_CSV_ROWS }),
  );
  const query = parseListQuery(params, queryColumns(read.data), { maxLimit: MAX_CSV_ROWS });
  const { data, cache } = await datedIf(sheet, tab, read, readsDates(read.data, query), options);
  const { rows, total } = applyQuery(data, query, await decideAll(data, conditionsOf(query)));
  const columns = [
    ...(data.hasIdColumn ? [] : ["id"]),
    ...data.columns.map((c) => c.name).filter((name) => !query.select || name === "id" || query.select.includes(name)),
  ];
  const formulas = await formulasFor(sheet, read, asked);
  return {
    cache,
    readAt: data.readAt,
    total,
    columns,
    etag: etagOf([
      "csv",
      columns,
      query.typed,
      asked,
      total,
      rows.map((r) => [r.id, r.cells, formulas?.get(r.rowNumber) ? [...formulas.get(r.rowNumber)!] : null]),
    ]),
    body: csvStream(
      columns,
      (function* () {
        for (const r of rows) yield rowToJson(data, r, { ...query, formulas });
      })(),
    ),
  };
}

export async function getRow(
  sheet: SheetRecord,
  tab: TabModel,
  version: number | undefined,
  rowId: string,
  params: URLSearchParams,
  options: ReadOptions = {},
): Promise<{ row: ReturnType<typeof rowToJson>; cache: CacheStatus; etag: string; readAt: number }> {
  checkParams(params, ["typed", "select", "formulas"]);
  const asked = formulasAsked(params, options);
  const read = await readScoped(sheet, tab, version, options, typedAsked(params), rowPrecheck(params));
  return {
    ...rowView(read.data, tab, rowId, params, await formulasFor(sheet, read, asked)),
    cache: read.cache,
    readAt: read.data.readAt,
  };
}

/** The row as asked for, with its state's ETag (what If-Match compares), whatever view was asked for. */
function rowView(data: TabData, tab: TabModel, rowId: string, params: URLSearchParams, formulas?: Formulas) {
  const row = findRow(data, rowId);
  if (!row) throw new ApiError("not_found", `No row with id ${quoted(rowId)} in the tab "${tab.name}".`);
  const select = parseSelect(params.get("select"), queryColumns(data));
  return {
    row: rowToJson(data, row, { typed: parseBoolean("typed", params.get("typed")), select, formulas }),
    etag: rowEtag(data, row),
  };
}

/** One row as the API sends it (its ETag is the row's state, as If-Match compares it), kept like lists. */
export async function rowAnswer(
  sheet: SheetRecord,
  tab: TabModel,
  version: number | undefined,
  rowId: string,
  params: URLSearchParams,
  options: ReadOptions = {},
): Promise<ReadAnswer> {
  checkParams(params, ["typed", "select", "formulas"]);
  // Checked before a kept answer is looked up: a key without the allowance never gets one.
  const asked = formulasAsked(params, options);
  const read = await readScoped(sheet, tab, version, options, typedAsked(params), rowPrecheck(params));
  const { data, cache } = read;
  const answer = await cachedAnswer(data, `row\u0000${rowId}\u0000${params}`, async () => {
    const { row, etag } = rowView(data, tab, rowId, params, await formulasFor(sheet, read, asked));
    return { text: okText({ data: row }), etag };
  });
  return { ...answer, cache, readAt: data.readAt };
}

/** `_aggregate` and `_distinct`: groups of the matching rows, from the cached copy. */
export async function aggregateRows(
  sheet: SheetRecord,
  tab: TabModel,
  version: number | undefined,
  params: URLSearchParams,
  kind: "aggregate" | "distinct",
  options: ReadOptions = {},
) {
  const parse = (data: TabData | null) =>
    kind === "distinct" ? parseDistinct(params, data) : parseAggregate(params, data);
  const read = await readScoped(sheet, tab, version, options, typedAsked(params), () => [
    parse(null),
    parseListQuery(filtersOf(params), null),
  ]);
  const query = parse(read.data);
  const filters = parseListQuery(filtersOf(params), queryColumns(read.data));
  const { data, cache } = await datedIf(
    sheet,
    tab,
    read,
    readsDates(read.data, { ...filters, typed: query.typed }, query.groupBy),
    options,
  );
  const result = aggregate(data, query, filters, await decideAll(data, conditionsOf(filters)));
  return { cache, readAt: data.readAt, query, ...result };
}
