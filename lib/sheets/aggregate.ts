// Aggregates over a tab's cached copy (no Google call when the copy is current): the rows the
// filter (and `or`) keeps, grouped by the values of `group_by` columns as the sheet shows them,
// with count and sum/avg/min/max of number, currency and percent columns, read in the sheet's
// locale ("24,50 €" is 24.5, "15%" is 0.15). Empty cells and text that is not a number are left
// out of sum/avg/min/max (avg divides by the cells counted), and a group without any gives null.
// Groups come in the order of their values, as `sort` orders them (empty last).
import { ApiError, quoted } from "@/lib/http/errors";
import { comparableValue, typedValue, type JsonValue } from "./cell-values";
import { multiSortOrder } from "./multi-sort";
import { applyQuery, parseBoolean, parseListQuery, queryColumns, splitEscaped } from "./query";
import { checkParams } from "./query-params";
import type { TabData, TabRow } from "./rows";

export const FUNCTIONS = ["sum", "avg", "min", "max"] as const;
type Fn = (typeof FUNCTIONS)[number];
const NUMERIC = new Set(["number", "currency", "percent"]);
export const MAX_GROUPS = 10_000;
const bad = (message: string) => new ApiError("validation_error", message);

export interface AggregateQuery {
  groupBy: string[];
  measures: { fn: Fn; column: string }[];
  limit: number;
  offset: number;
  typed: boolean;
}

export interface Group {
  group: Record<string, JsonValue>;
  count: number;
  sum?: Record<string, number | null>;
  avg?: Record<string, number | null>;
  min?: Record<string, number | null>;
  max?: Record<string, number | null>;
}

const names = (raw: string) => splitEscaped(raw, ",").map((n) => n.replace(/\\([,|\\])/g, "$1"));

export function parseAggregate(params: URLSearchParams, data: TabData): AggregateQuery {
  checkParams(params, ["group_by", "aggregate", "filter", "or", "limit", "offset", "typed"]);
  const columns = queryColumns(data);
  const groupBy = params.get("group_by") === null ? [] : names(params.get("group_by")!);
  for (const c of groupBy) if (!columns.includes(c)) throw bad(`Unknown group_by column ${quoted(c)}. Columns: ${columns.join(", ")}.`);
  if (new Set(groupBy).size !== groupBy.length) throw bad("group_by names a column twice.");
  const measures: AggregateQuery["measures"] = [];
  for (const item of names(params.get("aggregate") ?? "count")) {
    if (item === "count") continue;
    const at = item.indexOf(":");
    const fn = item.slice(0, at) as Fn;
    const column = item.slice(at + 1);
    if (at < 0 || !FUNCTIONS.includes(fn)) throw bad(`Cannot read ${quoted(item)} in aggregate: use count, or sum:column, avg:column, min:column, max:column, joined by commas.`);
    const model = data.columns.find((c) => c.name === column);
    if (!model) throw bad(`Unknown aggregate column ${quoted(column)}. Columns: ${columns.join(", ")}.`);
    if (!NUMERIC.has(model.type)) throw bad(`${fn} needs a number, currency or percent column; ${quoted(column)} is ${model.type}.`);
    if (!measures.some((m) => m.fn === fn && m.column === column)) measures.push({ fn, column });
  }
  // limit/offset page the groups (up to MAX_GROUPS); the rest is the list's filter language.
  const paging = parseListQuery(new URLSearchParams([...["limit", "offset"].flatMap((p) => (params.has(p) ? [[p, params.get(p)!]] : []))]), columns, { maxLimit: MAX_GROUPS });
  return { groupBy, measures, limit: params.has("limit") ? paging.limit : 1000, offset: paging.offset, typed: parseBoolean("typed", params.get("typed")) };
}

const exact = (x: number) => Number(x.toPrecision(15));

// Each number column's values as numbers, read once per cached copy of the tab (the copy never
// changes: a write or an edit brings a new one).
const numberColumns = new WeakMap<TabData, Map<string, (number | undefined)[]>>();
function numbersOf(data: TabData, column: string): (number | undefined)[] {
  let byColumn = numberColumns.get(data);
  if (!byColumn) numberColumns.set(data, (byColumn = new Map()));
  let numbers = byColumn.get(column);
  if (!numbers) {
    const at = data.columns.findIndex((c) => c.name === column);
    numbers = data.rows.map((r) => comparableValue(r.cells[at]!, data.columns[at]!, data.where));
    byColumn.set(column, numbers);
  }
  return numbers;
}

/** `_distinct?column=`: the column's values among the matching rows, as groups of one column. */
export function parseDistinct(params: URLSearchParams, data: TabData): AggregateQuery {
  checkParams(params, ["column", "filter", "or", "limit", "offset", "typed"]);
  const column = params.get("column");
  const columns = queryColumns(data);
  if (column === null) throw bad(`column is required: the column whose values to list. Columns: ${columns.join(", ")}.`);
  if (!columns.includes(column)) throw bad(`Unknown column ${quoted(column)}. Columns: ${columns.join(", ")}.`);
  const rest = new URLSearchParams([...params].filter(([name]) => name !== "column"));
  return { ...parseAggregate(rest, data), groupBy: [column] };
}

export function aggregate(data: TabData, q: AggregateQuery, params: URLSearchParams): { groups: Group[]; total: number; rows: number } {
  const filters = new URLSearchParams([...["filter", "or"].flatMap((p) => params.getAll(p).map((v) => [p, v]))]);
  const matched = new Set(applyQuery(data, { ...parseListQuery(filters, queryColumns(data)), limit: data.rows.length, offset: 0 }).rows);
  const at = (column: string) => data.columns.findIndex((c) => c.name === column);
  const order = q.groupBy.length ? multiSortOrder(data, q.groupBy.map((column) => ({ column, order: "asc" as const }))) : data.rows.map((_, i) => i);
  const keyCells = q.groupBy.map(at);
  const measured = q.measures.map((m) => numbersOf(data, m.column));
  const keyOf = (row: TabRow) => (keyCells.length === 1 ? (keyCells[0]! >= 0 ? row.cells[keyCells[0]!]! : row.id) : JSON.stringify(keyCells.map((c) => (c >= 0 ? row.cells[c] : row.id))));
  const byKey = new Map<string, { first: number; count: number; stats: { sum: number; n: number; min: number; max: number }[] }>();
  for (const i of order) {
    const row = data.rows[i]!;
    if (!matched.has(row)) continue;
    const key = keyOf(row);
    let g = byKey.get(key);
    if (!g) byKey.set(key, (g = { first: i, count: 0, stats: q.measures.map(() => ({ sum: 0, n: 0, min: Infinity, max: -Infinity })) }));
    g.count++;
    for (let k = 0; k < measured.length; k++) {
      const value = measured[k]![i];
      if (value === undefined) continue;
      const s = g.stats[k]!;
      s.sum += value;
      s.n++;
      if (value < s.min) s.min = value;
      if (value > s.max) s.max = value;
    }
  }
  // Without group_by there is always one group, as SQL's count(*) over no rows is 0.
  if (!q.groupBy.length && !byKey.size) byKey.set("[]", { first: -1, count: 0, stats: q.measures.map(() => ({ sum: 0, n: 0, min: Infinity, max: -Infinity })) });
  const all = [...byKey.values()];
  const groups = all.slice(q.offset, q.offset + q.limit).map((g) => {
    const row = data.rows[g.first];
    const group: Record<string, JsonValue> = Object.create(null);
    for (const c of q.groupBy) {
      if (!row) break;
      const column = data.columns[at(c)];
      const text = column ? row.cells[at(c)]! : row.id;
      group[c] = q.typed ? typedValue(text, column ?? { type: "number" }, data.where, row.serials?.[at(c)]) : text;
    }
    const out: Group = { group, count: g.count };
    q.measures.forEach((m, k) => {
      const s = g.stats[k]!;
      const value = { sum: s.n ? exact(s.sum) : null, avg: s.n ? exact(s.sum / s.n) : null, min: s.n ? s.min : null, max: s.n ? s.max : null }[m.fn];
      (out[m.fn] ??= Object.create(null) as Record<string, number | null>)[m.column] = value;
    });
    return out;
  });
  return { groups, total: all.length, rows: matched.size };
}
