// spreadsheets.get: the spreadsheet's properties and tabs, with grid data when asked, under a
// field mask as Google applies one.
import type { GridRange } from "../a1";
import { cellData } from "../cells";
import { applyFields, parseFields } from "../fields";
import { Calculator } from "../formulas";
import { localeRules } from "../locales";
import { mergesOf } from "../merges";
import { noteAt, noteExtent } from "../notes";
import { cellAt, usedRowCount, type Spreadsheet, type Tab } from "../model";
import { DEFAULT_FORMAT, DEFAULT_THEME } from "../spreadsheet-defaults";
import { resolveRange, bounded, isTrue } from "./ranges";

type Json = Record<string, unknown>;

export function sheetProperties(tab: Tab, index: number): Json {
  const gridProperties: Json = { rowCount: tab.rowCount, columnCount: tab.columnCount };
  if (tab.frozenRowCount) gridProperties.frozenRowCount = tab.frozenRowCount;
  if (tab.hideGridlines) gridProperties.hideGridlines = true;
  return {
    sheetId: tab.sheetId,
    title: tab.title,
    index,
    sheetType: "GRID",
    gridProperties,
    ...(tab.hidden ? { hidden: true } : {}),
  };
}

/** Google's default row height and column width, in pixels. */
const ROW_PIXELS = 21;
const COLUMN_PIXELS = 100;

/**
 * GridData for a range: a CellData per cell up to the last one holding a value or a note (a blank
 * cell in between is `{}`), rows up to the last one holding either, and the size of every row and
 * column of the range within the grid.
 */
function gridData(
  sheet: Spreadsheet,
  calc: Calculator,
  tab: Tab,
  grid: GridRange,
  dimensions = { rows: true, columns: true },
): Json {
  const rules = localeRules(sheet.locale);
  const b = bounded(tab, grid);
  const notes = noteExtent(tab);
  const rowData: Json[] = [];
  const lastRow = Math.min(b.endRow, Math.max(usedRowCount(tab), notes.rows));
  for (let r = b.startRow; r < lastRow; r++) {
    const values: Json[] = [];
    let width = 0;
    const rowEnd = Math.min(b.endCol, Math.max(tab.rows[r]?.length ?? 0, notes.columnsOf(r)));
    for (let c = b.startCol; c < rowEnd; c++) {
      const cell = cellAt(tab, r, c);
      const note = noteAt(tab, r, c);
      const data: Json = cell ? cellData(cell, calc.value(tab, r, c), calc.format(tab, r, c), rules) : {};
      if (note) data.note = note;
      values.push(data);
      if (cell || note) width = values.length;
    }
    values.length = width;
    rowData.push(width ? { values } : {});
  }
  const out: Json = {};
  // Google leaves zero-valued fields out of its JSON.
  if (b.startRow) out.startRow = b.startRow;
  if (b.startCol) out.startColumn = b.startCol;
  out.rowData = rowData;
  const count = (from: number, to: number) => Math.max(0, to - from);
  if (dimensions.rows)
    out.rowMetadata = Array.from({ length: count(b.startRow, Math.min(b.endRow, tab.rowCount)) }, () => ({
      pixelSize: ROW_PIXELS,
    }));
  if (dimensions.columns)
    out.columnMetadata = Array.from({ length: count(b.startCol, Math.min(b.endCol, tab.columnCount)) }, () => ({
      pixelSize: COLUMN_PIXELS,
    }));
  return out;
}

const isEmpty = (v: unknown) => typeof v === "object" && v !== null && Object.keys(v).length === 0;

/**
 * After a field mask, Google drops what is left empty in grid data: cells with no selected field
 * at the end of a row, rows with no cells at the end, and `values` or `rowData` lists left empty.
 * An empty cell or row before a kept one stays as `{}`, holding its place.
 */
function pruneGridData(spreadsheet: Json): void {
  for (const tab of (spreadsheet.sheets as Json[] | undefined) ?? []) {
    for (const data of (tab.data as Json[] | undefined) ?? []) {
      const rows = data.rowData as Json[] | undefined;
      if (!rows) continue;
      for (const row of rows) {
        const values = row.values as unknown[] | undefined;
        if (!values) continue;
        while (values.length && isEmpty(values[values.length - 1])) values.pop();
        if (!values.length) delete row.values;
      }
      while (rows.length && isEmpty(rows[rows.length - 1])) rows.pop();
      if (!rows.length) delete data.rowData;
    }
  }
}

export function getSpreadsheet(sheet: Spreadsheet, params: URLSearchParams, baseUrl: string): Json {
  const fields = params.get("fields");
  const selection = fields === null ? undefined : parseFields(fields);
  // "includeGridData ... is ignored if a field mask was set": the mask alone decides.
  const sheetsSelection = selection?.get("sheets");
  const withGrid = selection
    ? sheetsSelection === true || (sheetsSelection instanceof Map && sheetsSelection.has("data"))
    : isTrue(params.get("includeGridData"));
  // Row and column sizes only when they are asked for: a tall tab's grid read stays small.
  const dataSelection = sheetsSelection instanceof Map ? sheetsSelection.get("data") : undefined;
  const dimensions = {
    rows: !(dataSelection instanceof Map) || dataSelection.has("rowMetadata"),
    columns: !(dataSelection instanceof Map) || dataSelection.has("columnMetadata"),
  };
  const ranges = params.getAll("ranges").map((r) => resolveRange(sheet, r));
  const tabs = ranges.length ? sheet.tabs.filter((t) => ranges.some((r) => r.tab === t)) : sheet.tabs;
  const calc = new Calculator(sheet);
  const out = {
    spreadsheetId: sheet.spreadsheetId,
    properties: {
      title: sheet.title,
      locale: sheet.locale,
      autoRecalc: "ON_CHANGE",
      timeZone: sheet.timeZone,
      defaultFormat: DEFAULT_FORMAT,
      spreadsheetTheme: DEFAULT_THEME,
    },
    sheets: tabs.map((tab) => {
      const out: Json = { properties: sheetProperties(tab, sheet.tabs.indexOf(tab)) };
      const merges = mergesOf(tab);
      if (merges) out.merges = merges;
      if (withGrid) {
        const own = ranges.filter((r) => r.tab === tab);
        out.data = own.length
          ? own.map((r) => gridData(sheet, calc, tab, r.grid, dimensions))
          : [gridData(sheet, calc, tab, {}, dimensions)];
      }
      return out;
    }),
    spreadsheetUrl: `${baseUrl}/spreadsheets/d/${sheet.spreadsheetId}/edit`,
  };
  if (!selection) return out;
  const masked = applyFields(out, selection) as Json;
  pruneGridData(masked);
  return masked;
}
