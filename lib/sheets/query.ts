// List queries (DECISIONS 8-10): limit/offset, stable sort (by value when a column holds only
// numbers or dates, empty values last), filters with = != > >= < <= ~ and `a|b` alternatives,
// select. Values are read in the sheet's own locale: "1.234,5" in a de_DE sheet is 1234.5.
import { ApiError, quoted } from "@/lib/http/errors";
import { comparableTarget, comparableValue, comparesByValue, type ValueColumn } from "./cell-values";
import { likePattern } from "./like";
import { multiSortOrder } from "./multi-sort";
import { checkParams } from "./query-params";
import type { TabData, TabRow } from "./rows";

export type Operator = "=" | "!=" | ">" | ">=" | "<" | "<=" | "~" | "~=";

export interface Condition {
  column: string;
  op: Operator;
  /** One value, or several for `=`, `!=` and `~=` with `|`. */
  values: string[];
}

export interface SortKey {
  column: string;
  order: "asc" | "desc";
}

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
const KNOWN_PARAMS = ["limit", "offset", "sort", "order", "filter", "or", "select", "typed"];
const bad = (message: string) => new ApiError("validation_error", message);

function integer(name: string, raw: string | null, fallback: number, min: number, max: number): number {
  if (raw === null) return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw bad(`${name} must be an integer from ${min} to ${max === Number.MAX_SAFE_INTEGER ? "any size" : max}; got ${quoted(raw)}.`);
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

function parseCondition(text: string, columns: string[]): Condition {
  if (text === "") throw bad("The filter has an empty condition: write conditions as column=value, joined by commas.");
  const at = text.search(/[!=<>~]/);
  if (at <= 0) throw bad(`Cannot read the filter condition ${quoted(text)}: write column=value (operators = != > >= < <= ~ ~=).`);
  const column = text.slice(0, at);
  const op = OPERATORS.find((o) => text.startsWith(o, at));
  if (!op) throw bad(`Cannot read the operator in ${quoted(text)}: use = != > >= < <= ~ or ~=.`);
  if (!columns.includes(column)) throw bad(`Unknown filter column ${quoted(column)}. Columns: ${columns.join(", ")}.`);
  const rest = text.slice(at + op.length);
  const values = ALTERNATIVES.has(op) ? splitEscaped(rest, "|") : [splitEscaped(rest, "|").join("|")];
  return { column, op, values };
}

/** `maxLimit`: CSV answers stream up to MAX_CSV_ROWS rows and default to all of them. */
export function parseListQuery(params: URLSearchParams, columns: string[], { maxLimit = MAX_LIMIT } = {}): ListQuery {
  checkParams(params, KNOWN_PARAMS);
  const limit = integer("limit", params.get("limit"), maxLimit === MAX_LIMIT ? 100 : maxLimit, 1, maxLimit);
  const offset = integer("offset", params.get("offset"), 0, 0, Number.MAX_SAFE_INTEGER);
  const [first, ...thenBy] = parseSort(params.get("sort"), params.get("order"), columns);
  const conditions = (text: string | null) => (text === null || text === "" ? [] : splitEscaped(text, ",").map((c) => parseCondition(c, columns)));
  const filters = conditions(params.get("filter"));
  const anyOf = params.getAll("or").map(conditions).filter((group) => group.length > 0);
  return { limit, offset, sort: first?.column, order: first?.order ?? "asc", filters, anyOf, thenBy, select: parseSelect(params.get("select"), columns), typed: parseBoolean("typed", params.get("typed")) };
}

/**
 * `sort=a` or `sort=a,b` (a `,` inside a name escaped as `\,`; a column whose whole name is the
 * value wins), with `order=asc|desc` for every key, or one direction per key (`order=asc,desc`).
 */
export function parseSort(rawSort: string | null, rawOrder: string | null, columns: string[]): SortKey[] {
  const orders = (rawOrder ?? "asc").toLowerCase().split(",");
  if (orders.some((o) => o !== "asc" && o !== "desc")) throw bad(`order must be asc or desc; got ${quoted(rawOrder ?? "")}.`);
  if (rawSort === null) {
    if (orders.length > 1) throw bad("order lists several directions but sort names no column.");
    return [];
  }
  const names = columns.includes(rawSort) ? [rawSort] : splitEscaped(rawSort, ",").map((n) => n.replace(/\\([,|\\])/g, "$1"));
  for (const name of names) if (!columns.includes(name)) throw bad(`Unknown sort column ${quoted(name)}. Columns: ${columns.join(", ")}.`);
  if (new Set(names).size !== names.length) throw bad(`sort names a column twice: ${quoted(rawSort)}.`);
  if (orders.length !== 1 && orders.length !== names.length) throw bad(`order gives ${orders.length} directions for ${names.length} sort columns: give one, or one per column.`);
  return names.map((column, i) => ({ column, order: (orders[i] ?? orders[0]) as "asc" | "desc" }));
}

/** `select=colA,colB`: the columns to return (the id always comes too). */
export function parseSelect(raw: string | null, columns: string[]): string[] | undefined {
  if (raw === null) return undefined;
  const select = raw.split(",").filter(Boolean);
  const unknown = select.filter((c) => !columns.includes(c));
  if (unknown.length || !select.length) throw bad(`Unknown select column ${quoted(unknown[0] ?? "")}. Columns: ${columns.join(", ")}.`);
  return select;
}

/** The value of a named column in a row; `id` is always available. */
export function cellOf(data: TabData, row: TabRow, column: string): string {
  const index = data.columns.findIndex((c) => c.name === column);
  return index >= 0 ? row.cells[index]! : row.id;
}

export function queryColumns(data: TabData): string[] {
  const names = data.columns.map((c) => c.name);
  return data.hasIdColumn ? names : ["id", ...names];
}

// Per-tab indexes, built on first use and kept as long as the cached tab: each column's values
// and their numeric readings (numbers, or dates as time), and each sort order. Queries then cost
// one pass over the rows.
interface ColumnIndex {
  column: ValueColumn;
  values: string[];
  numbers: (number | undefined)[];
  /** True when every non-empty value has a number: the column sorts by value. */
  numeric: boolean;
}

/** `id` of a tab without an id column is the row number. */
const ROW_NUMBER: ValueColumn = { type: "number" };

const columnIndexes = new WeakMap<TabData, Map<string, ColumnIndex>>();
const sortOrders = new WeakMap<TabData, Map<string, number[]>>();

function columnIndex(data: TabData, column: string): ColumnIndex {
  let byColumn = columnIndexes.get(data);
  if (!byColumn) columnIndexes.set(data, (byColumn = new Map()));
  let index = byColumn.get(column);
  if (!index) {
    const at = data.columns.findIndex((c) => c.name === column);
    const model = data.columns[at] ?? ROW_NUMBER;
    const values = data.rows.map((r) => cellOf(data, r, column));
    const numbers = values.map((v, i) => comparableValue(v, model, data.where, data.rows[i]!.serials?.[at]));
    index = { column: model, values, numbers, numeric: values.every((v, i) => v === "" || numbers[i] !== undefined) };
    byColumn.set(column, index);
  }
  return index;
}

/** Row positions in sort order: stable, numeric for number columns, empty values last. */
function sortOrder(data: TabData, column: string, order: "asc" | "desc"): number[] {
  let byKey = sortOrders.get(data);
  if (!byKey) sortOrders.set(data, (byKey = new Map()));
  const key = `${order}\u0000${column}`;
  let positions = byKey.get(key);
  if (!positions) {
    const { values, numbers, numeric } = columnIndex(data, column);
    const dir = order === "desc" ? -1 : 1;
    positions = values.map((_, i) => i);
    positions.sort((a, b) => {
      const x = values[a]!;
      const y = values[b]!;
      if (x === "" || y === "") return x === y ? 0 : x === "" ? 1 : -1;
      const diff = numeric ? numbers[a]! - numbers[b]! : x < y ? -1 : x > y ? 1 : 0;
      return diff * dir;
    });
    byKey.set(key, positions);
  }
  return positions;
}

type Test = (i: number) => boolean;

function compileCondition(data: TabData, c: Condition): Test {
  const { column, values, numbers } = columnIndex(data, c.column);
  const target = c.values[0]!;
  const targetNumber = comparableTarget(target, column, data.where);
  // Numeric when both sides are numbers, else by text; an empty cell has no order.
  const compare = (i: number) => {
    const n = numbers[i];
    if (n !== undefined && targetNumber !== undefined) return n - targetNumber;
    const v = values[i]!;
    return v < target ? -1 : v > target ? 1 : 0;
  };
  switch (c.op) {
    case "=":
    case "!=": {
      // As displayed, or for numbers and dates by value: price=24.5 matches "24,50 €".
      const wanted = new Set(c.values);
      const byValue = comparesByValue(column.type) ? new Set(c.values.map((v) => comparableTarget(v, column, data.where)).filter((n) => n !== undefined)) : new Set<number>();
      const equal = (i: number) => wanted.has(values[i]!) || (numbers[i] !== undefined && byValue.has(numbers[i]));
      return c.op === "=" ? equal : (i) => !equal(i);
    }
    case "~": {
      const needle = target.toLowerCase();
      return (i) => values[i]!.toLowerCase().includes(needle);
    }
    case "~=": {
      const patterns = c.values.map(likePattern);
      return (i) => patterns.some((p) => p.test(values[i]!));
    }
    case ">":
      return (i) => values[i] !== "" && compare(i) > 0;
    case ">=":
      return (i) => values[i] !== "" && compare(i) >= 0;
    case "<":
      return (i) => values[i] !== "" && compare(i) < 0;
    case "<=":
      return (i) => values[i] !== "" && compare(i) <= 0;
  }
}

export function applyQuery(data: TabData, q: ListQuery): { rows: TabRow[]; total: number } {
  const all = q.filters.map((c) => compileCondition(data, c));
  const groups = (q.anyOf ?? []).map((group) => group.map((c) => compileCondition(data, c)));
  const tests: Test[] = groups.length ? [...all, (i) => groups.every((g) => g.some((t) => t(i)))] : all;
  const order = q.thenBy?.length ? multiSortOrder(data, [{ column: q.sort!, order: q.order }, ...q.thenBy]) : q.sort ? sortOrder(data, q.sort, q.order) : undefined;
  const page: TabRow[] = [];
  let total = 0;
  for (let k = 0; k < data.rows.length; k++) {
    const i = order ? order[k]! : k;
    if (!tests.every((t) => t(i))) continue;
    if (total >= q.offset && page.length < q.limit) page.push(data.rows[i]!);
    total++;
  }
  return { rows: page, total };
}
