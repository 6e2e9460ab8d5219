// Cells as Google takes them: a value as CellData, new rows as RowData, and the batchUpdate
// requests that insert rows, write named cells, and keep a grid from losing its last row.
import type { sheets_v4 } from "@googleapis/sheets";
import { ApiError } from "@/lib/errors";
import type { TabData, TabRow } from "@/lib/sheets/values/rows";
import type { TabModel } from "@/lib/sheets/values/tab-model";
import { cellValue, type CellInput, type RowInput } from "./row-input";
import { NUMERIC_ID } from "./row-ids";
import type { SheetsRequest } from "./write-guard";

/** A value as Google's CellData: a string is text (never a formula), null clears the cell. */
export function cellData(value: CellInput | string): sheets_v4.Schema$CellData {
  const v = cellValue(value);
  if (v === "") return {};
  if (typeof v === "number") return { userEnteredValue: { numberValue: v } };
  if (typeof v === "boolean") return { userEnteredValue: { boolValue: v } };
  return { userEnteredValue: { stringValue: v } };
}

/** New rows as Google's RowData: each named cell, the id column from `ids`, the rest blank. */
export function newRowCells(data: TabData, rows: RowInput[], ids: string[]): sheets_v4.Schema$RowData[] {
  const width = Math.max(0, ...data.columns.map((c) => c.index)) + 1;
  return rows.map((row, i) => {
    const cells: sheets_v4.Schema$CellData[] = Array.from({ length: width }, () => ({}));
    for (const c of data.columns) {
      if (c.name === "id" && data.hasIdColumn)
        cells[c.index] = cellData(NUMERIC_ID.test(ids[i]!) ? Number(ids[i]) : ids[i]!);
      else if (c.name in row) cells[c.index] = cellData(row[c.name]!);
    }
    return { values: cells };
  });
}

/** Rows `at` (0-based) to `at + count` of the tab. */
export const rowsRange = (model: TabModel, at: number, count: number) => ({
  sheetId: model.gid,
  dimension: "ROWS",
  startIndex: at,
  endIndex: at + count,
});

/** New rows inserted at `at` (0-based) and written; they take the formats of the row above, as in the Sheets UI (not the header's). */
export function insertRows(model: TabModel, at: number, rows: sheets_v4.Schema$RowData[]): SheetsRequest[] {
  return [
    { insertDimension: { range: rowsRange(model, at, rows.length), inheritFromBefore: at > 1 } },
    { updateCells: { start: { sheetId: model.gid, rowIndex: at, columnIndex: 0 }, rows, fields: "userEnteredValue" } },
  ];
}

/** One updateCells per named cell: cells the body does not name are never touched. */
export function cellUpdates(data: TabData, model: TabModel, row: TabRow, patch: RowInput): SheetsRequest[] {
  return data.columns
    .filter((c) => c.name in patch)
    .map((col) => ({
      updateCells: {
        start: { sheetId: model.gid, rowIndex: row.rowNumber - 1, columnIndex: col.index },
        rows: [{ values: [cellData(patch[col.name]!)] }],
        fields: "userEnteredValue",
      },
    }));
}

/**
 * Google refuses to delete a grid's last rows below a frozen header ("not possible to delete all
 * non-frozen rows"), refusing the whole batch; the same batch with a blank row appended first
 * leaves the grid as the Sheets UI would: header and one blank row.
 */
export const refusesDeletingEveryRow = (err: unknown) =>
  err instanceof ApiError && /delete all non-frozen rows|delete all the rows/.test(err.message);
export const appendBlankRow = (gid: number) => ({ appendDimension: { sheetId: gid, dimension: "ROWS", length: 1 } });
