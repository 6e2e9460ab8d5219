// batchUpdate's row and column requests: deleteDimension, insertDimension, appendDimension.
import type { Cell } from "../cells";
import { badRequest } from "../errors";
import { ensureRoom } from "../grid-limits";
import { shiftOnDelete, shiftOnInsert } from "../metadata";
import { shiftMerges } from "../merges";
import { shiftNotes } from "../notes";
import type { Spreadsheet, Tab } from "../model";
import { type Request, tabById } from "./batch-request";

type Json = Record<string, unknown>;

function dimensionRange(
  sheet: Spreadsheet,
  req: Json,
  where: string,
): { tab: Tab; dimension: string; start: number; end: number } {
  const range = (req.range ?? {}) as Json;
  const tab = tabById(sheet, range.sheetId ?? 0, where);
  const start = Number(range.startIndex ?? 0);
  const end = Number(range.endIndex);
  if (!Number.isInteger(start) || !Number.isInteger(end) || start < 0 || end <= start) {
    throw badRequest(`${where}range startIndex must be less than endIndex.`);
  }
  return { tab, dimension: String(range.dimension), start, end };
}

/** Makes room for `n` empty rows at `start` without allocating them (they stay holes). */
function openRows(tab: Tab, start: number, n: number): void {
  if (start >= tab.rows.length) return;
  const tail = tab.rows.slice(start);
  tab.rows.length = start;
  tail.forEach((row, i) => (tab.rows[start + n + i] = row));
}

export const deleteDimension: Request = (sheet, req, where) => {
  const { tab, dimension, start, end } = dimensionRange(sheet, req, where);
  if (dimension === "ROWS") {
    if (end > tab.rowCount)
      throw badRequest(
        `${where}Range ('${tab.title}'!${start + 1}:${end}) exceeds grid limits. Max rows: ${tab.rowCount}`,
      );
    if (start === 0 && end >= tab.rowCount) throw badRequest(`${where}You can't delete all the rows on the sheet.`);
    const frozen = tab.frozenRowCount ?? 0;
    if (frozen > 0 && start <= frozen && end >= tab.rowCount)
      throw badRequest(`${where}Sorry, it is not possible to delete all non-frozen rows.`);
    tab.rows.splice(start, end - start);
    shiftNotes(tab, "ROWS", start, start - end);
    shiftMerges(tab, "ROWS", start, start - end);
    tab.rowCount -= end - start;
    if (frozen > start) tab.frozenRowCount = Math.max(start, frozen - (end - start));
  } else if (dimension === "COLUMNS") {
    if (end > tab.columnCount) throw badRequest(`${where}Range exceeds grid limits. Max columns: ${tab.columnCount}`);
    if (start === 0 && end >= tab.columnCount)
      throw badRequest(`${where}You can't delete all the columns on the sheet.`);
    for (const row of tab.rows) row?.splice(start, end - start);
    shiftNotes(tab, "COLUMNS", start, start - end);
    shiftMerges(tab, "COLUMNS", start, start - end);
    tab.columnCount -= end - start;
  } else throw badRequest(`${where}dimension must be ROWS or COLUMNS.`);
  shiftOnDelete(sheet, tab.sheetId, dimension, start, end);
  return {};
};

export const insertDimension: Request = (sheet, req, where) => {
  const { tab, dimension, start, end } = dimensionRange(sheet, req, where);
  const n = end - start;
  if (dimension === "ROWS") {
    if (start > tab.rowCount) throw badRequest(`${where}startIndex is past the end of the grid.`);
    ensureRoom(sheet, tab, tab.rowCount + n, tab.columnCount, where);
    openRows(tab, start, n);
    shiftNotes(tab, "ROWS", start, n);
    shiftMerges(tab, "ROWS", start, n);
    tab.rowCount += n;
  } else if (dimension === "COLUMNS") {
    if (start > tab.columnCount) throw badRequest(`${where}startIndex is past the end of the grid.`);
    ensureRoom(sheet, tab, tab.rowCount, tab.columnCount + n, where);
    for (const row of tab.rows)
      if (row && start < row.length) row.splice(start, 0, ...Array<Cell | null>(n).fill(null));
    shiftNotes(tab, "COLUMNS", start, n);
    shiftMerges(tab, "COLUMNS", start, n);
    tab.columnCount += n;
  } else throw badRequest(`${where}dimension must be ROWS or COLUMNS.`);
  shiftOnInsert(sheet, tab.sheetId, dimension, start, n);
  return {};
};

export const appendDimension: Request = (sheet, req, where) => {
  const tab = tabById(sheet, req.sheetId ?? 0, where);
  const length = Number(req.length);
  if (!Number.isInteger(length) || length <= 0) throw badRequest(`${where}length must be positive.`);
  if (req.dimension === "ROWS") {
    ensureRoom(sheet, tab, tab.rowCount + length, tab.columnCount, where);
    tab.rowCount += length;
  } else if (req.dimension === "COLUMNS") {
    ensureRoom(sheet, tab, tab.rowCount, tab.columnCount + length, where);
    tab.columnCount += length;
  } else throw badRequest(`${where}dimension must be ROWS or COLUMNS.`);
  return {};
};
