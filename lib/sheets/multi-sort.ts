// Sorting by several columns (`sort=status,price&order=asc,desc`): each key as a single-column
// sort orders it (by value when all its non-empty values are numbers or dates, in the sheet's
// locale; else by text; empty values last in both directions), later keys breaking ties, and
// rows equal on every key keeping their sheet order (stable). Each order is kept with the cached
// tab, as single-column orders are.
import { comparableValue } from "./cell-values";
import type { SortKey } from "./query";
import type { TabData } from "./rows";

interface KeyValues {
  values: string[];
  numbers: (number | undefined)[];
  numeric: boolean;
  dir: number;
}

const orders = new WeakMap<TabData, Map<string, Uint32Array>>();

function keyValues(data: TabData, { column, order }: SortKey): KeyValues {
  const at = data.columns.findIndex((c) => c.name === column);
  const model = data.columns[at] ?? { type: "number" as const };
  const values = data.rows.map((r) => (at >= 0 ? r.cells[at]! : r.id));
  const numbers = values.map((v, i) => comparableValue(v, model, data.where, data.rows[i]!.serials?.[at]));
  return { values, numbers, numeric: values.every((v, i) => v === "" || numbers[i] !== undefined), dir: order === "desc" ? -1 : 1 };
}

function compareOn(k: KeyValues, a: number, b: number): number {
  const x = k.values[a]!;
  const y = k.values[b]!;
  if (x === "" || y === "") return x === y ? 0 : x === "" ? 1 : -1;
  const diff = k.numeric ? k.numbers[a]! - k.numbers[b]! : x < y ? -1 : x > y ? 1 : 0;
  return diff * k.dir;
}

/** Row positions in the order of the keys. */
export function multiSortOrder(data: TabData, keys: SortKey[]): Uint32Array {
  let byKeys = orders.get(data);
  if (!byKeys) orders.set(data, (byKeys = new Map()));
  const id = keys.map((k) => `${k.order}\u0000${k.column}`).join("\u0001");
  let positions = byKeys.get(id);
  if (!positions) {
    const columns = keys.map((k) => keyValues(data, k));
    const sorted = data.rows.map((_, i) => i);
    sorted.sort((a, b) => {
      for (const k of columns) {
        const diff = compareOn(k, a, b);
        if (diff !== 0) return diff;
      }
      return a - b;
    });
    positions = Uint32Array.from(sorted);
    byKeys.set(id, positions);
  }
  return positions;
}
