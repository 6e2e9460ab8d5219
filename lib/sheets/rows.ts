// A tab's values as rows (DECISIONS 1-3): the live header names the columns, blank rows are
// skipped, the `id` column (or the row number) identifies each row, values stay strings as the
// sheet displays them, and `typed` turns them into numbers, booleans and nulls by column type.
import { etagOf } from "@/lib/http/conditional";
import { columnNames, type ColumnModel, type ColumnType, type TabModel } from "./tab-model";

export interface TabRow {
  /** 1-based row number in the sheet (the header is row 1). */
  rowNumber: number;
  id: string;
  /** One displayed value per column, in column order. */
  cells: string[];
}

export interface TabData {
  tab: string;
  columns: ColumnModel[];
  hasIdColumn: boolean;
  rows: TabRow[];
  /** Row number of the last row holding anything (1 for a header-only tab). */
  lastRowNumber: number;
}

export type JsonValue = string | number | boolean | null;

/** Builds rows from values.get (FORMATTED_VALUE) output; types come from the schema by name. */
export function parseTabValues(tab: string, values: string[][], model?: TabModel): TabData {
  const header = (values[0] ?? []).map((v) => String(v ?? ""));
  const types = new Map(model?.columns.map((c) => [c.name, c.type]));
  const columns = columnNames(header).map(({ name, index }) => ({ name, index, type: types.get(name) ?? ("string" as ColumnType) }));
  const idIndex = columns.findIndex((c) => c.name === "id");
  const rows: TabRow[] = [];
  for (let r = 1; r < values.length; r++) {
    const raw = values[r] ?? [];
    if (!raw.some((v) => v !== "" && v !== null && v !== undefined)) continue;
    const cells = columns.map((c) => String(raw[c.index] ?? ""));
    rows.push({ rowNumber: r + 1, id: idIndex >= 0 ? cells[idIndex]! : String(r + 1), cells });
  }
  return { tab, columns, hasIdColumn: idIndex >= 0, rows, lastRowNumber: Math.max(1, values.length) };
}

/**
 * A displayed number as a number: currency symbols, grouping commas and a trailing % are
 * ignored ("$1,234.50" -> 1234.5, "15%" -> 15). Undefined when it is not a number.
 */
export function displayedNumber(value: string): number | undefined {
  const trimmed = value.trim();
  if (trimmed === "") return undefined;
  const negative = /^[^\d]*-/.test(trimmed) || /^\(.*\)$/.test(trimmed);
  const core = trimmed.replace(/[(),\s]/g, "").replace(/^[^\d.]+/, "").replace(/%$/, "");
  if (!/^\d*\.?\d+(e[+-]?\d+)?$/i.test(core)) return undefined;
  const n = Number(core);
  return Number.isFinite(n) ? (negative ? -n : n) : undefined;
}

export function typedValue(value: string, type: ColumnType): JsonValue {
  if (value === "") return null;
  switch (type) {
    case "boolean":
      return value === "TRUE" ? true : value === "FALSE" ? false : value;
    case "number":
    case "currency":
      return displayedNumber(value) ?? value;
    case "percent": {
      const n = displayedNumber(value);
      if (n === undefined) return value;
      return value.trim().endsWith("%") ? Number((n / 100).toPrecision(12)) : n;
    }
    default:
      return value;
  }
}

export interface RowView {
  typed: boolean;
  /** Column names to return (the id always comes too); all when undefined. */
  select?: string[];
}

export function rowToJson(data: TabData, row: TabRow, view: RowView = { typed: false }): Record<string, JsonValue> {
  const out: Record<string, JsonValue> = {};
  // Tabs without an id column still give every row its id: the row number (as Sheety does).
  if (!data.hasIdColumn) out.id = view.typed ? row.rowNumber : row.id;
  data.columns.forEach((c, i) => {
    if (view.select && c.name !== "id" && !view.select.includes(c.name)) return;
    const v = row.cells[i]!;
    out[c.name] = view.typed ? typedValue(v, c.type) : v;
  });
  return out;
}

/** The row's state as an ETag (its id and every cell under the current header), whatever view was asked for. */
export function rowEtag(data: TabData, row: TabRow): string {
  return etagOf([data.columns.map((c) => c.name), row.id, row.cells]);
}
