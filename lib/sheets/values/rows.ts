// A tab's values as rows (DECISIONS 1-3): the live header names the columns, blank rows are
// skipped, the `id` column (or the row number) identifies each row, values stay strings as the
// sheet displays them, and `typed` turns them into numbers, booleans, nulls and ISO 8601 dates
// by column type, read in the sheet's own locale and time zone.
import { etagOf } from "@/lib/http/conditional";
import { sheetLocaleOf, typedValue, type JsonValue, type SheetLocale } from "./cell-values";
import { storeRows, type TabRow } from "./tab-columns";
import { columnNames, type ColumnModel, type TabModel } from "./tab-model";

export type { JsonValue, TabRow };

/** Row number -> column name -> formula (`?formulas=true`, formula-values.ts). */
export type Formulas = Map<number, Map<string, string>>;

export interface TabData {
  tab: string;
  columns: ColumnModel[];
  hasIdColumn: boolean;
  rows: TabRow[];
  /** Row number of the last row holding anything (1 for a header-only tab). */
  lastRowNumber: number;
  /** How the sheet displays numbers and dates: what its cells are read with. */
  where: SheetLocale;
  /** When these values were read from Google (ms): what a read's Last-Modified and Age report. */
  readAt: number;
  /** True once the date columns' serial numbers were read (date-values.ts). */
  dated?: boolean;
}

/** Builds rows from values.get (FORMATTED_VALUE) output; types come from the schema by name. */
export function parseTabValues(tab: string, values: string[][], model?: TabModel): TabData {
  const header = (values[0] ?? []).map((v) => String(v ?? ""));
  const known = new Map(model?.columns.map((c) => [c.name, c]));
  const columns: ColumnModel[] = columnNames(header).map(({ name, index }) => {
    const column = known.get(name);
    return { name, index, type: column?.type ?? "string", ...(column?.pattern ? { pattern: column.pattern } : {}) };
  });
  const idIndex = columns.findIndex((c) => c.name === "id");
  const kept: number[] = [];
  for (let r = 1; r < values.length; r++)
    if ((values[r] ?? []).some((v) => v !== "" && v !== null && v !== undefined)) kept.push(r);
  const rows = storeRows(
    values,
    kept,
    columns.map((c) => c.index),
    idIndex,
  );
  return {
    tab,
    columns,
    hasIdColumn: idIndex >= 0,
    rows,
    lastRowNumber: Math.max(1, values.length),
    where: sheetLocaleOf(model),
    readAt: Date.now(),
  };
}

/**
 * A tab's cells as values.get (FORMATTED_VALUE) gives them, from grid data that starts at A1 (a
 * batchUpdate's read-back of the whole tab): trailing blank cells of each row and trailing blank
 * rows left out, as Google leaves them out, so the copy parsed from it is the one a read makes.
 */
export function valuesOfGrid(rowData: { values?: { formattedValue?: string | null }[] | null }[]): string[][] {
  const values = rowData.map((r) => {
    const cells = (r.values ?? []).map((v) => v.formattedValue ?? "");
    while (cells.length && cells[cells.length - 1] === "") cells.pop();
    return cells;
  });
  while (values.length && !values[values.length - 1]!.length) values.pop();
  return values;
}

export interface RowView {
  typed: boolean;
  /** `?formulas=true`: formula cells answer with their formula (formula-values.ts). */
  formulas?: Formulas;
  /** Column names to return (the id always comes too); all when undefined. */
  select?: string[];
}

export function rowToJson(data: TabData, row: TabRow, view: RowView = { typed: false }): Record<string, JsonValue> {
  // No prototype: a column named `__proto__` is a field like any other (JSON output is the same).
  const out: Record<string, JsonValue> = Object.create(null);
  // Tabs without an id column still give every row its id: the row number (as Sheety does).
  if (!data.hasIdColumn) out.id = view.typed ? row.rowNumber : row.id;
  const cells = row.cells;
  data.columns.forEach((c, i) => {
    if (view.select && c.name !== "id" && !view.select.includes(c.name)) return;
    const v = cells[i]!;
    const formula = view.formulas?.get(row.rowNumber)?.get(c.name);
    out[c.name] = formula ?? (view.typed ? typedValue(v, c, data.where, row.serials?.[i]) : v);
  });
  return out;
}

/** The row's state as an ETag (its id and every cell under the current header), whatever view was asked for. */
export function rowEtag(data: TabData, row: TabRow): string {
  return etagOf([data.columns.map((c) => c.name), row.id, row.cells]);
}
