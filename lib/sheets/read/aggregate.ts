// Aggregates over a tab's cached copy: count and sum/avg/min/max per group, values read in the
// sheet's locale (README.md).
import { ApiError, quoted } from "@/lib/errors";
import { typedValue, type JsonValue } from "@/lib/sheets/values/cell-values";
import {
  filterMask,
  knows,
  listed,
  parseBoolean,
  parseListQuery,
  queryColumns,
  splitEscaped,
  type ListQuery,
} from "./query";
import { checkParams } from "./query-params";
import type { TabData } from "@/lib/sheets/values/rows";
import type { Decided } from "./filter-decisions";
import { columnIndex, columnValues, sortOrder, type ColumnValues, type Condition } from "./tab-index";

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

/** `data` null: before the tab is read, every column name passes (see `Columns` in query.ts). */
export function parseAggregate(params: URLSearchParams, data: TabData | null): AggregateQuery {
  checkParams(params, ["group_by", "aggregate", "filter", "or", "limit", "offset", "typed"]);
  const columns = data && queryColumns(data);
  const groupBy = params.get("group_by") === null ? [] : names(params.get("group_by")!);
  for (const c of groupBy)
    if (!knows(columns, c)) throw bad(`Unknown group_by column ${quoted(c)}. Columns: ${listed(columns)}.`);
  if (new Set(groupBy).size !== groupBy.length) throw bad("group_by names a column twice.");
  const measures: AggregateQuery["measures"] = [];
  for (const item of names(params.get("aggregate") ?? "count")) {
    if (item === "count") continue;
    const at = item.indexOf(":");
    const fn = item.slice(0, at) as Fn;
    const column = item.slice(at + 1);
    if (at < 0 || !FUNCTIONS.includes(fn))
      throw bad(
        `Cannot read ${quoted(item)} in aggregate: use count, or sum:column, avg:column, min:column, max:column, joined by commas.`,
      );
    const model = data?.columns.find((c) => c.name === column);
    if (data && !model) throw bad(`Unknown aggregate column ${quoted(column)}. Columns: ${listed(columns)}.`);
    if (model && !NUMERIC.has(model.type))
      throw bad(`${fn} needs a number, currency or percent column; ${quoted(column)} is ${model.type}.`);
    if (!measures.some((m) => m.fn === fn && m.column === column)) measures.push({ fn, column });
  }
  // limit/offset page the groups (up to MAX_GROUPS); the rest is the list's filter language.
  const paging = parseListQuery(
    new URLSearchParams([...["limit", "offset"].flatMap((p) => (params.has(p) ? [[p, params.get(p)!]] : []))]),
    columns,
    { maxLimit: MAX_GROUPS },
  );
  return {
    groupBy,
    measures,
    limit: params.has("limit") ? paging.limit : 1000,
    offset: paging.offset,
    typed: parseBoolean("typed", params.get("typed")),
  };
}

const exact = (x: number) => Number(x.toPrecision(15));

/** `_distinct?column=`: the column's values among the matching rows, as groups of one column. */
export function parseDistinct(params: URLSearchParams, data: TabData | null): AggregateQuery {
  checkParams(params, ["column", "filter", "or", "limit", "offset", "typed"]);
  const column = params.get("column");
  const columns = data && queryColumns(data);
  if (column === null)
    throw bad(`column is required: the column whose values to list.${columns ? ` Columns: ${listed(columns)}.` : ""}`);
  if (!knows(columns, column)) throw bad(`Unknown column ${quoted(column)}. Columns: ${listed(columns)}.`);
  const rest = new URLSearchParams([...params].filter(([name]) => name !== "column"));
  return { ...parseAggregate(rest, data), groupBy: [column] };
}

/** The filters `_aggregate` and `_distinct` take (`filter`, `or`), as a list query's parameters. */
export const filtersOf = (params: URLSearchParams) =>
  new URLSearchParams([...params].filter(([name]) => name === "filter" || name === "or"));

/** `filters`: the query's `filter` and `or`, parsed (as `parseListQuery(filtersOf(params), ...)`); `decided`: their decisions (decideAll). */
export function aggregate(
  data: TabData,
  q: AggregateQuery,
  filters: Pick<ListQuery, "filters" | "anyOf">,
  decided?: Map<Condition, Decided>,
): { groups: Group[]; total: number; rows: number } {
  const matched = filterMask(data, filters, decided);
  // Groups by each key column's distinct values, from the tab's indexes (kept with its copy).
  const keys = q.groupBy.map((column) => columnValues(data, column));
  const order = q.groupBy.length
    ? sortOrder(
        data,
        q.groupBy.map((column) => ({ column, order: "asc" as const })),
      )
    : undefined;
  const measured = q.measures.map((m) => columnIndex(data, m.column));
  // Grouped by the text the sheet shows (a date column may hold one text under several serials).
  const textOf = (k: ColumnValues, i: number) => k.distinct[k.ids[i]!]!;
  const keyOf = (i: number): string =>
    keys.length === 1 ? textOf(keys[0]!, i) : JSON.stringify(keys.map((k) => textOf(k, i)));
  const byKey = new Map<
    string,
    { first: number; count: number; stats: { sum: number; n: number; min: number; max: number }[] }
  >();
  let rows = 0;
  for (let k = 0; k < data.rows.length; k++) {
    const i = order ? order[k]! : k;
    if (!matched[i]) continue;
    rows++;
    const key = keyOf(i);
    let g = byKey.get(key);
    if (!g)
      byKey.set(
        key,
        (g = { first: i, count: 0, stats: q.measures.map(() => ({ sum: 0, n: 0, min: Infinity, max: -Infinity })) }),
      );
    g.count++;
    for (let m = 0; m < measured.length; m++) {
      const value = measured[m]!.numbers[measured[m]!.ids[i]!]!;
      if (Number.isNaN(value)) continue;
      const s = g.stats[m]!;
      s.sum += value;
      s.n++;
      if (value < s.min) s.min = value;
      if (value > s.max) s.max = value;
    }
  }
  // Without group_by there is always one group, as SQL's count(*) over no rows is 0.
  if (!q.groupBy.length && !byKey.size)
    byKey.set("[]", {
      first: -1,
      count: 0,
      stats: q.measures.map(() => ({ sum: 0, n: 0, min: Infinity, max: -Infinity })),
    });
  const all = [...byKey.values()];
  const groups = all.slice(q.offset, q.offset + q.limit).map((g) => {
    const group: Record<string, JsonValue> = Object.create(null);
    q.groupBy.forEach((c, j) => {
      const key = keys[j]!;
      const text = key.distinct[key.ids[g.first]!]!;
      group[c] = q.typed ? typedValue(text, key.column, data.where, data.rows[g.first]!.serials?.[key.at]) : text;
    });
    const out: Group = { group, count: g.count };
    q.measures.forEach((m, k) => {
      const s = g.stats[k]!;
      const value = {
        sum: s.n ? exact(s.sum) : null,
        avg: s.n ? exact(s.sum / s.n) : null,
        min: s.n ? s.min : null,
        max: s.n ? s.max : null,
      }[m.fn];
      (out[m.fn] ??= Object.create(null) as Record<string, number | null>)[m.column] = value;
    });
    return out;
  });
  return { groups, total: all.length, rows };
}
