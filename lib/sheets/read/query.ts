// List queries (DECISIONS 8-10): limit/offset, stable sort (by value when a column holds only
// numbers or dates, empty values last), filters with = != > >= < <= ~ and `a|b` alternatives,
// select. Values are read in the sheet's own locale: "1.234,5" in a de_DE sheet is 1234.5.
import { ApiError, quoted } from "@/lib/errors";
import { checkSingle } from "@/lib/http/query-params";
import { checkParams } from "./query-params";
import type { TabData, TabRow } from "@/lib/sheets/values/rows";
import type { Decided } from "./filter-decisions";
import { checkConditionCount, checkPattern, checkWork, decidedOf } from "./query-cost";
import {
  columnIndex,
  isRange,
  positionsOf,
  rankRange,
  sortOrder,
  type Condition,
  type Operator,
  type SortKey,
} from "./tab-index";

export type { Condition, Operator, SortKey } from "./tab-index";

export interface ListQuery {
  limit: number;
  offset: number;
  sort?: string;
  order: "asc" | "desc";
  filters: Condition[];
  /** `or` parameters: in each group at least one condition holds (ANDed with `filters`). */
  anyOf: Condition[][];
  /** Sort keys after the first (`sort=a,b&order=asc,desc`). */
  thenBy: SortKey[];
  select?: string[];
  typed: boolean;
}

export const MAX_LIMIT = 1000;
export const MAX_CSV_ROWS = 100_000;
const KNOWN_PARAMS = ["limit", "offset", "sort", "order", "filter", "or", "select", "typed", "formulas"];
/** All but `filter` (each one more condition, ANDed) and `or` (each one more alternative). */
const SINGLE_VALUED = ["limit", "offset", "sort", "order", "select", "typed", "formulas", "fresh"];
const bad = (message: string) => new ApiError("validation_error", message);

function integer(name: string, raw: string | null, fallback: number, min: number, max: number): number {
  if (raw === null) return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw bad(
      `${name} must be ${max === Number.MAX_SAFE_INTEGER ? `a whole number, ${min} or more` : `an integer from ${min} to ${max}`}; got ${quoted(raw)}.`,
    );
  }
  return Number(raw);
}

export function parseBoolean(name: string, raw: string | null): boolean {
  if (raw === null || raw === "false" || raw === "0") return false;
  if (raw === "true" || raw === "1" || raw === "") return true;
  throw bad(`${name} must be true or false; got ${quoted(raw)}.`);
}

/** Splits on an unescaped separator, resolving `\,` `\|` `\\` escapes in the pieces. */
export function splitEscaped(text: string, separator: string): string[] {
  const parts: string[] = [];
  let current = "";
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (ch === "\\") {
      const next = text[i + 1];
      if (next === undefined) throw bad(`The filter ends with a lone "\\": escape a backslash as "\\\\".`);
      if (next === "," || next === "|" || next === "\\") {
        // Keep the escape for the inner split; it is resolved once at the end.
        current += separator === "," ? `\\${next}` : next;
        i++;
        continue;
      }
      current += ch;
      continue;
    }
    if (ch === separator) {
      parts.push(current);
      current = "";
      continue;
    }
    current += ch;
  }
  parts.push(current);
  return parts;
}

const OPERATORS: Operator[] = ["!=", ">=", "<=", "~=", "=", ">", "<", "~"];
/** Operators whose value may list alternatives with `|`. */
const ALTERNATIVES: ReadonlySet<Operator> = new Set(["=", "!=", "~="]);

/**
 * The columns a query may name; null before the tab is read: every name passes then, and the
 * query is parsed again with the columns read (a query that fails without them can never succeed).
 */
export type Columns = readonly string[] | null;
export const knows = (columns: Columns, name: string) => columns === null || columns.includes(name);
export const listed = (columns: Columns) => (columns ?? []).join(", ");

function parseCondition(text: string, columns: Columns): Condition {
  if (text === "") throw bad("The filter has an empty condition: write conditions as column=value, joined by commas.");
  const at = text.search(/[!=<>~]/);
  if (at <= 0)
    throw bad(`Cannot read the filter condition ${quoted(text)}: write column=value (operators = != > >= < <= ~ ~=).`);
  const column = text.slice(0, at);
  const op = OPERATORS.find((o) => text.startsWith(o, at));
  if (!op) throw bad(`Cannot read the operator in ${quoted(text)}: use = != > >= < <= ~ or ~=.`);
  if (!knows(columns, column)) throw bad(`Unknown filter column ${quoted(column)}. Columns: ${listed(columns)}.`);
  const rest = text.slice(at + op.length);
  const values = ALTERNATIVES.has(op) ? splitEscaped(rest, "|") : [splitEscaped(rest, "|").join("|")];
  checkPattern(op, values);
  return { column, op, values };
}

/** `maxLimit`: CSV answers stream up to MAX_CSV_ROWS rows and default to all of them. */
export function parseListQuery(params: URLSearchParams, columns: Columns, { maxLimit = MAX_LIMIT } = {}): ListQuery {
  checkParams(params, KNOWN_PARAMS);
  checkSingle(params, SINGLE_VALUED);
  const limit = integer("limit", params.get("limit"), maxLimit === MAX_LIMIT ? 100 : maxLimit, 1, maxLimit);
  const offset = integer("offset", params.get("offset"), 0, 0, Number.MAX_SAFE_INTEGER);
  const [first, ...thenBy] = parseSort(params.get("sort"), params.get("order"), columns);
  const conditions = (text: string | null) =>
    text === null || text === "" ? [] : splitEscaped(text, ",").map((c) => parseCondition(c, columns));
  // `filter` sent twice means both, as conditions joined by `,` do.
  const filters = params.getAll("filter").flatMap(conditions);
  const anyOf = params
    .getAll("or")
    .map(conditions)
    .filter((group) => group.length > 0);
  checkConditionCount(filters.length + anyOf.flat().length);
  return {
    limit,
    offset,
    sort: first?.column,
    order: first?.order ?? (params.get("order") === "desc" ? "desc" : "asc"),
    filters,
    anyOf,
    thenBy,
    select: parseSelect(params.get("select"), columns),
    typed: parseBoolean("typed", params.get("typed")),
  };
}

/**
 * `sort=a` or `sort=a,b` (a `,` inside a name escaped as `\,`; a column whose whole name is the
 * value wins), with `order=asc|desc` for every key, or one direction per key (`order=asc,desc`).
 */
export function parseSort(rawSort: string | null, rawOrder: string | null, columns: Columns): SortKey[] {
  // Exactly asc or desc, as DECISIONS 8 reads: anything else, `DESC` included, answers 400.
  const orders = (rawOrder ?? "asc").split(",");
  if (orders.some((o) => o !== "asc" && o !== "desc"))
    throw bad(`order must be asc or desc (lower case), or one of them per sort column; got ${quoted(rawOrder ?? "")}.`);
  if (rawSort === null) {
    if (orders.length > 1) throw bad("order lists several directions but sort names no column.");
    return [];
  }
  const names = columns?.includes(rawSort)
    ? [rawSort]
    : splitEscaped(rawSort, ",").map((n) => n.replace(/\\([,|\\])/g, "$1"));
  for (const name of names)
    if (!knows(columns, name)) throw bad(`Unknown sort column ${quoted(name)}. Columns: ${listed(columns)}.`);
  if (new Set(names).size !== names.length) throw bad(`sort names a column twice: ${quoted(rawSort)}.`);
  if (orders.length !== 1 && orders.length !== names.length)
    throw bad(`order gives ${orders.length} directions for ${names.length} sort columns: give one, or one per column.`);
  return names.map((column, i) => ({ column, order: (orders[i] ?? orders[0]) as "asc" | "desc" }));
}

/** `select=colA,colB`: the columns to return (the id always comes too). */
export function parseSelect(raw: string | null, columns: Columns): string[] | undefined {
  if (raw === null) return undefined;
  const select = raw.split(",").filter(Boolean);
  const unknown = select.filter((c) => !knows(columns, c));
  if (unknown.length || !select.length)
    throw bad(`Unknown select column ${quoted(unknown[0] ?? "")}. Columns: ${listed(columns)}.`);
  return select;
}

export function queryColumns(data: TabData): string[] {
  const names = data.columns.map((c) => c.name);
  return data.hasIdColumn ? names : ["id", ...names];
}

/**
 * The rows a query keeps, in its order, paged, and how many match in all. Each condition is read
 * from its column's decisions per distinct value (tab-index.ts); a range filter on the first sort
 * column, or the narrowest range of an unsorted query, is the slice of the kept order it selects,
 * so only the rows in it are visited. `decided`: the conditions' decisions (decideAll), else
 * decided here, within the work budget.
 */
export function applyQuery(
  data: TabData,
  q: ListQuery,
  decided?: Map<Condition, Decided>,
): { rows: TabRow[]; total: number } {
  if (!decided) checkWork(data, conditionsOf(q));
  const keys: SortKey[] = q.sort ? [{ column: q.sort, order: q.order }, ...(q.thenBy ?? [])] : [];
  const order = keys.length ? sortOrder(data, keys) : undefined;
  let visit: Uint32Array | undefined = order;
  let [start, end] = [0, data.rows.length];
  let conditions = q.filters;
  const slice = narrowestRange(data, q.filters, keys[0]?.column);
  if (slice && order) {
    [start, end] = positionsOf(columnIndex(data, slice.column), slice.ranks, keys[0]!.order);
    conditions = conditions.filter((c) => !slice.conditions.includes(c));
  } else if (slice && !order) {
    const c = columnIndex(data, slice.column);
    const [from, to] = positionsOf(c, slice.ranks, "asc");
    // Worth it when it leaves few rows: they are put back in sheet order.
    if (to - from <= data.rows.length / 4) {
      visit = sortOrder(data, [{ column: slice.column, order: "asc" }])
        .slice(from, to)
        .sort();
      [start, end] = [0, to - from];
      conditions = conditions.filter((c) => !slice.conditions.includes(c));
    }
  }
  // `order=desc` without `sort`: the sheet's order reversed, its last rows first.
  const reversed = !order && q.order === "desc";
  const rowAt = (k: number) => {
    const j = reversed ? start + end - 1 - k : k;
    return visit ? visit[j]! : j;
  };
  const decide = decidedOf(data, decided);
  const all = conditions.map(decide);
  const groups = (q.anyOf ?? []).map((group) => group.map(decide));
  const page: TabRow[] = [];
  if (!all.length && !groups.length) {
    // Nothing left to test: the page is a slice.
    for (let k = start + q.offset; k < end && page.length < q.limit; k++) page.push(data.rows[rowAt(k)]!);
    return { rows: page, total: end - start };
  }
  let total = 0;
  for (let k = start; k < end; k++) {
    const i = rowAt(k);
    if (!matches(all, groups, i)) continue;
    if (total >= q.offset && page.length < q.limit) page.push(data.rows[i]!);
    total++;
  }
  return { rows: page, total };
}

/** Every condition of the query, `filter` and `or`. */
export const conditionsOf = (q: Pick<ListQuery, "filters" | "anyOf">): Condition[] => [
  ...q.filters,
  ...(q.anyOf ?? []).flat(),
];

/** Per row, in sheet order: 1 when it passes the query's filters (`filter` and `or`). */
export function filterMask(
  data: TabData,
  q: Pick<ListQuery, "filters" | "anyOf">,
  decided?: Map<Condition, Decided>,
): Uint8Array {
  if (!decided) checkWork(data, conditionsOf(q));
  const decide = decidedOf(data, decided);
  const all = q.filters.map(decide);
  const groups = (q.anyOf ?? []).map((group) => group.map(decide));
  const mask = new Uint8Array(data.rows.length);
  for (let i = 0; i < mask.length; i++) mask[i] = matches(all, groups, i) ? 1 : 0;
  return mask;
}

function matches(all: Decided[], groups: Decided[][], i: number): boolean {
  for (let t = 0; t < all.length; t++) if (!all[t]!.match[all[t]!.ids[i]!]) return false;
  for (let g = 0; g < groups.length; g++) {
    const group = groups[g]!;
    let any = false;
    for (let t = 0; t < group.length && !any; t++) any = group[t]!.match[group[t]!.ids[i]!] === 1;
    if (!any) return false;
  }
  return true;
}

/**
 * The range conditions (ANDed) that a kept sort order answers as one slice: on the first sort
 * column when it has them, else on the column whose ranges keep the fewest rows.
 */
function narrowestRange(
  data: TabData,
  filters: Condition[],
  sortColumn: string | undefined,
): { column: string; ranks: [number, number]; conditions: Condition[] } | undefined {
  const byColumn = new Map<string, { column: string; ranks: [number, number]; conditions: Condition[] }>();
  for (const c of filters) {
    if (!isRange(c.op)) continue;
    const ranks = rankRange(data, { ...c, op: c.op });
    if (!ranks) continue;
    const seen = byColumn.get(c.column);
    if (!seen) byColumn.set(c.column, { column: c.column, ranks, conditions: [c] });
    else {
      seen.ranks = [Math.max(seen.ranks[0], ranks[0]), Math.min(seen.ranks[1], ranks[1])];
      seen.conditions.push(c);
    }
  }
  if (sortColumn !== undefined) return byColumn.get(sortColumn);
  const size = (s: { column: string; ranks: [number, number] }) => {
    const [from, to] = positionsOf(columnIndex(data, s.column), s.ranks, "asc");
    return to - from;
  };
  return [...byColumn.values()].sort((a, b) => size(a) - size(b))[0];
}
