// Indexes of a tab's copy, each built on first use and kept with the copy, so a query costs one
// pass over the rows it can match; sorting as DECISIONS 9 has it (README.md).
import { comparableTarget, comparableValue, isDateType, type ValueColumn } from "@/lib/sheets/values/cell-values";
import type { TabData, TabRow } from "@/lib/sheets/values/rows";
import { columnsOfRows, storedColumns, type StoredColumn } from "@/lib/sheets/values/tab-columns";

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

/** A column's values: each distinct one once, and per row which it holds. */
export interface ColumnValues {
  column: ValueColumn;
  /** The column's position in the tab's columns; -1 for the row number of a tab without ids. */
  at: number;
  /** Its values as displayed; one text may come more than once in a date column read with serials. */
  distinct: string[];
  /** Per row, its value's position in `distinct`. */
  ids: Uint16Array | Uint32Array;
  /** Per distinct value of a date column read with serials, its serial number. */
  serials?: (number | undefined)[];
}

export interface ColumnIndex extends ColumnValues {
  /** Per distinct value, the number it compares by; NaN when it has none (it compares as text). */
  numbers: Float64Array;
  /** True when every non-empty value has a number: the column sorts by value. */
  numeric: boolean;
  folded?: string[];
  /** The characters of its distinct values (what a `~` or `~=` pattern reads). */
  chars?: number;
  decisions: Map<string, Uint8Array>;
  ranking?: Ranking;
}

/** The distinct values in sort order, for sorts and ranges (built on the first that needs it). */
interface Ranking {
  /** Per distinct value, its place in ascending order; equal values share one, the empty value is last. */
  rank: Uint32Array;
  /** A distinct value of each rank. */
  byRank: Uint32Array;
  /** Ranks of non-empty values: 0 to nonEmpty - 1. */
  nonEmpty: number;
  /** Rows before each rank in ascending order (one more entry than ranks). */
  rankStart: Uint32Array;
}

interface TabIndex {
  stored?: StoredColumn[];
  values: Map<string, ColumnValues>;
  columns: Map<string, ColumnIndex>;
  orders: Map<string, Uint32Array>;
  byId?: Map<string, number>;
}

/** `id` of a tab without an id column is the row number. */
const ROW_NUMBER: ValueColumn & { name: string } = { name: "id", type: "number" };
const indexes = new WeakMap<TabData, TabIndex>();
const MAX_ORDERS = 16;

function tabIndex(data: TabData): TabIndex {
  let index = indexes.get(data);
  if (!index) indexes.set(data, (index = { values: new Map(), columns: new Map(), orders: new Map() }));
  return index;
}

/** The position of the first row with this id (ids repeat only in a sheet edited by hand). */
export function rowIndexOf(data: TabData, id: string): number | undefined {
  const index = tabIndex(data);
  if (!index.byId) {
    index.byId = new Map();
    data.rows.forEach((r, i) => index.byId!.has(r.id) || index.byId!.set(r.id, i));
  }
  return index.byId.get(id);
}

/** The first row with this id, through the copy's id index (built once per copy). */
export function findRow(data: TabData, rowId: string): TabRow | undefined {
  const at = rowIndexOf(data, rowId);
  return at === undefined ? undefined : data.rows[at];
}

/** The values of a column (`id` is always one) as distinct values, row ids of them and, for dates, serials. */
function valuesOf(data: TabData, index: TabIndex, at: number): Pick<ColumnValues, "distinct" | "ids" | "serials"> {
  if (at < 0) return { distinct: data.rows.map((r) => r.id), ids: Uint32Array.from(data.rows, (_, i) => i) };
  index.stored ??= storedColumns(data.rows) ?? columnsOfRows(data.rows, data.columns.length);
  const stored = index.stored[at]!;
  if (!data.dated || !isDateType(data.columns[at]!.type)) return stored;
  // Two cells showing "Jan 15" may be different days: a date column's value is its display with
  // its serial number (date-values.ts).
  const seen = new Map<string, number>();
  const distinct: string[] = [];
  const serials: (number | undefined)[] = [];
  const ids = new Uint32Array(data.rows.length);
  data.rows.forEach((row, i) => {
    const serial = row.serials?.[at];
    const key = `${stored.ids[i]}:${serial ?? ""}`;
    let id = seen.get(key);
    if (id === undefined) {
      seen.set(key, (id = distinct.length));
      distinct.push(stored.distinct[stored.ids[i]!]!);
      serials.push(serial);
    }
    ids[i] = id;
  });
  return { distinct, ids, serials };
}

export function columnValues(data: TabData, name: string): ColumnValues {
  const index = tabIndex(data);
  let found = index.values.get(name);
  if (!found) {
    const at = data.columns.findIndex((c) => c.name === name);
    found = { column: data.columns[at] ?? ROW_NUMBER, at, ...valuesOf(data, index, at) };
    index.values.set(name, found);
  }
  return found;
}

/** A column's values with the numbers they compare by, for filters, sorts and sums. */
export function columnIndex(data: TabData, name: string): ColumnIndex {
  const index = tabIndex(data);
  let found = index.columns.get(name);
  if (!found) {
    const values = columnValues(data, name);
    const { distinct, serials } = values;
    const numbers = Float64Array.from(
      distinct,
      (v, d) => comparableValue(v, values.column, data.where, serials?.[d]) ?? NaN,
    );
    const numeric = distinct.every((v, d) => v === "" || !Number.isNaN(numbers[d]));
    found = { ...values, numbers, numeric, decisions: new Map() };
    index.columns.set(name, found);
  }
  return found;
}

function ranking(c: ColumnIndex): Ranking {
  if (c.ranking) return c.ranking;
  const { distinct, numbers, numeric, ids } = c;
  const compare = (a: number, b: number) => {
    const x = distinct[a]!;
    const y = distinct[b]!;
    if (x === "" || y === "") return x === y ? 0 : x === "" ? 1 : -1;
    return numeric ? numbers[a]! - numbers[b]! : x < y ? -1 : x > y ? 1 : 0;
  };
  const sorted = Uint32Array.from(distinct, (_, d) => d).sort(compare);
  const rank = new Uint32Array(distinct.length);
  const byRank: number[] = [];
  sorted.forEach((d, k) => {
    if (k === 0 || compare(sorted[k - 1]!, d) !== 0) byRank.push(d);
    rank[d] = byRank.length - 1;
  });
  const rankStart = new Uint32Array(byRank.length + 1);
  for (let i = 0; i < ids.length; i++) rankStart[rank[ids[i]!]! + 1]!++;
  for (let r = 0; r < byRank.length; r++) rankStart[r + 1]! += rankStart[r]!;
  const nonEmpty = byRank.length - (distinct.includes("") ? 1 : 0);
  return (c.ranking = { rank, byRank: Uint32Array.from(byRank), nonEmpty, rankStart });
}

// --- Sort orders ---------------------------------------------------------------------------------

/** Each row's sort key for one column and direction: its rank, non-empty ranks reversed for desc. */
function sortKeys(c: ColumnIndex, order: "asc" | "desc"): Uint32Array {
  const { rank, nonEmpty } = ranking(c);
  const keys = new Uint32Array(c.ids.length);
  for (let i = 0; i < keys.length; i++) {
    const r = rank[c.ids[i]!]!;
    keys[i] = order === "desc" && r < nonEmpty ? nonEmpty - 1 - r : r;
  }
  return keys;
}

/** Stable counting sort of `rows` (all rows in sheet order when undefined) by `keys`. */
function countingSort(rows: Uint32Array | undefined, keys: Uint32Array, buckets: number): Uint32Array {
  const start = new Uint32Array(buckets + 1);
  for (let i = 0; i < keys.length; i++) start[keys[i]! + 1]!++;
  for (let b = 0; b < buckets; b++) start[b + 1]! += start[b]!;
  const out = new Uint32Array(keys.length);
  for (let k = 0; k < keys.length; k++) {
    const i = rows ? rows[k]! : k;
    out[start[keys[i]!]!++] = i;
  }
  return out;
}

/** Row positions in the order of the keys, kept with the tab's copy. */
export function sortOrder(data: TabData, keys: SortKey[]): Uint32Array {
  const index = tabIndex(data);
  const id = JSON.stringify(keys.map((k) => [k.order, k.column]));
  let order = index.orders.get(id);
  if (!order) {
    // Least significant key first: each stable pass keeps the order of the keys after it among ties.
    for (let k = keys.length - 1; k >= 0; k--) {
      const c = columnIndex(data, keys[k]!.column);
      order = countingSort(order, sortKeys(c, keys[k]!.order), ranking(c).byRank.length);
    }
    order ??= Uint32Array.from(data.rows, (_, i) => i);
    // Sort keys come from requests: the orders kept per copy are bounded (the oldest goes first).
    if (index.orders.size >= MAX_ORDERS) index.orders.delete(index.orders.keys().next().value!);
    index.orders.set(id, order);
  }
  return order;
}

// --- Filters -------------------------------------------------------------------------------------

export type RangeOp = ">" | ">=" | "<" | "<=";
export const isRange = (op: Condition["op"]): op is RangeOp => op === ">" || op === ">=" || op === "<" || op === "<=";

/** Compares a distinct value with a target: by number when both have one, else by text. */
export function comparer(c: ColumnIndex, target: string, targetNumber: number | undefined) {
  return (d: number) => {
    const n = c.numbers[d]!;
    if (!Number.isNaN(n) && targetNumber !== undefined) return n - targetNumber;
    const v = c.distinct[d]!;
    return v < target ? -1 : v > target ? 1 : 0;
  };
}

export const inRange = (op: RangeOp, diff: number) =>
  op === ">" ? diff > 0 : op === ">=" ? diff >= 0 : op === "<" ? diff < 0 : diff <= 0;

/**
 * The ranks a range condition keeps, [from, to), when they are consecutive in the column's sort
 * order: both sides compare by number in a column sorted by value, or both by text in one sorted
 * by text. Undefined when the comparison mixes the two (then decisions() answers it).
 */
export function rankRange(data: TabData, condition: Condition & { op: RangeOp }): [number, number] | undefined {
  const c = columnIndex(data, condition.column);
  const target = condition.values[0]!;
  const targetNumber = comparableTarget(target, c.column, data.where);
  if (c.numeric !== (targetNumber !== undefined)) return undefined;
  const compare = comparer(c, target, targetNumber);
  const { byRank, nonEmpty } = ranking(c);
  // The first non-empty rank whose value passes `holds` (which holds from some rank on).
  const first = (holds: (diff: number) => boolean) => {
    let lo = 0;
    let hi = nonEmpty;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (holds(compare(byRank[mid]!))) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  };
  switch (condition.op) {
    case ">":
      return [first((d) => d > 0), nonEmpty];
    case ">=":
      return [first((d) => d >= 0), nonEmpty];
    case "<":
      return [0, first((d) => d >= 0)];
    case "<=":
      return [0, first((d) => d > 0)];
  }
}

/** Where the rows of ranks [from, to) of `column` sit in an order sorted first by it. */
export function positionsOf(c: ColumnIndex, [from, to]: [number, number], order: "asc" | "desc"): [number, number] {
  if (from >= to) return [0, 0];
  const { rankStart, nonEmpty } = ranking(c);
  if (order === "asc") return [rankStart[from]!, rankStart[to]!];
  const filled = rankStart[nonEmpty]!;
  return [filled - rankStart[to]!, filled - rankStart[from]!];
}
