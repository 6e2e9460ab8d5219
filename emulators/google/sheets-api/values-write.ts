// Writing a block of values at a range, as values.update, batchUpdate and append do: the
// input checked, each value stored raw or as if typed (USER_ENTERED).
import { formatRange, indexToColumn } from "../a1";
import { rawCell, type Cell, type Scalar } from "../cells";
import { badRequest, invalidValue } from "../errors";
import { ensureRoom } from "../grid-limits";
import { localeRules } from "../locales";
import { setCell, type Spreadsheet } from "../model";
import { userEnteredCell } from "../user-entered";
import { resolveRange, bounded } from "./ranges";

type Json = Record<string, unknown>;

function checkScalar(v: unknown, where: string): Scalar | null {
  if (v === null || typeof v === "string" || typeof v === "boolean") return v;
  if (typeof v === "number" && Number.isFinite(v)) return v;
  throw badRequest(`Invalid ${where}: ${JSON.stringify(v)} is not a string, number or boolean.`);
}

const LIST_VALUE = "type.googleapis.com/google.protobuf.ListValue";

export function inputRows(body: Json, majorDefault = "ROWS"): (Scalar | null)[][] {
  const values = body.values;
  if (values === undefined) return [];
  if (!Array.isArray(values)) throw invalidValue("data.values", LIST_VALUE, values);
  const rows = values.map((row, r) => {
    if (!Array.isArray(row)) throw invalidValue(`data.values[${r}]`, LIST_VALUE, row);
    return row.map((v, c) => checkScalar(v, `values[${r}][${c}]`));
  });
  if ((body.majorDimension ?? majorDefault) === "COLUMNS") {
    const height = Math.max(0, ...rows.map((col) => col.length));
    return Array.from({ length: height }, (_, r) => rows.map((col) => col[r] ?? null));
  }
  return rows;
}

function toCell(sheet: Spreadsheet, v: Scalar, input: string): Cell | null {
  if (v === "") return null;
  return input === "USER_ENTERED"
    ? userEnteredCell(v, localeRules(sheet.locale), { timeZone: sheet.timeZone })
    : rawCell(v);
}

export function requireInputOption(option: string | null | undefined): string {
  if (!option || option === "INPUT_VALUE_OPTION_UNSPECIFIED") {
    throw badRequest("'valueInputOption' is required but not specified");
  }
  if (option !== "RAW" && option !== "USER_ENTERED") throw badRequest(`Invalid valueInputOption: ${option}`);
  return option;
}

/**
 * Writes a block at the range's top-left; null cells are skipped, "" clears a cell. A range of one
 * cell is an anchor: the whole block is written from it, as far as it reaches. The counts are of
 * the cells written (nulls skipped), and of the rows and columns holding one.
 */
export function writeBlock(sheet: Spreadsheet, range: string, rows: (Scalar | null)[][], input: string): Json {
  const { tab, grid } = resolveRange(sheet, range);
  const b = bounded(tab, grid);
  const width = Math.max(0, ...rows.map((r) => r.length));
  const anchor =
    !range.slice(range.lastIndexOf("!") + 1).includes(":") &&
    grid.endRow === (grid.startRow ?? 0) + 1 &&
    grid.endCol === (grid.startCol ?? 0) + 1;
  if (!anchor && grid.endCol !== undefined && b.startCol + width > b.endCol) {
    throw badRequest(
      `Requested writing within range [${range}], but tried writing to column [${indexToColumn(b.startCol + width - 1)}]`,
    );
  }
  if (!anchor && grid.endRow !== undefined && b.startRow + rows.length > b.endRow) {
    throw badRequest(
      `Requested writing within range [${range}], but tried writing to row [${b.startRow + rows.length}]`,
    );
  }
  // Writing past the grid's edge grows it, within the spreadsheet's cell limit.
  ensureRoom(
    sheet,
    tab,
    Math.max(tab.rowCount, b.startRow + rows.length),
    Math.max(tab.columnCount, b.startCol + width),
  );
  const writtenRows = new Set<number>();
  const writtenColumns = new Set<number>();
  let cells = 0;
  rows.forEach((row, i) =>
    row.forEach((v, j) => {
      if (v === null) return;
      setCell(tab, b.startRow + i, b.startCol + j, toCell(sheet, v, input));
      writtenRows.add(i);
      writtenColumns.add(j);
      cells++;
    }),
  );
  const written = {
    startRow: b.startRow,
    endRow: b.startRow + Math.max(rows.length, 1),
    startCol: b.startCol,
    endCol: b.startCol + Math.max(width, 1),
  };
  return {
    spreadsheetId: sheet.spreadsheetId,
    updatedRange: formatRange(tab.title, written),
    updatedRows: writtenRows.size,
    updatedColumns: writtenColumns.size,
    updatedCells: cells,
  };
}
