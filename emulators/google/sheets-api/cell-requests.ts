// batchUpdate's requests that write cells: updateCells and pasteData.
import { rawCell, type Cell } from "../cells";
import { badRequest } from "../errors";
import { localeRules } from "../locales";
import { setNote } from "../notes";
import { cellAt, setCell } from "../model";
import { userEnteredCell } from "../user-entered";
import { type Request, tabById } from "./batch-request";

type Json = Record<string, unknown>;

/** A CellData's userEnteredValue as a stored cell: a stringValue is text, never a formula. */
function enteredCell(data: Json | undefined): Cell | null {
  const v = (data?.userEnteredValue ?? undefined) as Json | undefined;
  if (!v) return null;
  if (typeof v.formulaValue === "string") return { value: v.formulaValue, formula: true };
  if (typeof v.numberValue === "number") return rawCell(v.numberValue);
  if (typeof v.boolValue === "boolean") return rawCell(v.boolValue);
  if (typeof v.stringValue === "string") return v.stringValue === "" ? null : rawCell(v.stringValue);
  return null;
}

/**
 * updateCells: the cells of `rows` written from `start` (only those given) or over `range`
 * (cells of the range not given are cleared), for the fields named. The grid does not grow:
 * writing past its edge is 400, as in Google.
 */
export const updateCells: Request = (sheet, req, where) => {
  const fields = String(req.fields ?? "");
  if (!fields) throw badRequest(`${where}At least one field must be updated, but 'fields' is empty.`);
  const named = fields.split(",").map((f) => f.trim());
  const values = fields === "*" || named.includes("userEnteredValue");
  const notes = fields === "*" || named.includes("note");
  const start = req.start as Json | undefined;
  const range = req.range as Json | undefined;
  if (!start === !range) throw badRequest(`${where}exactly one of start or range must be set.`);
  const at = (start ?? range)!;
  const tab = tabById(sheet, at.sheetId ?? 0, where);
  const row0 = Number(start ? (start.rowIndex ?? 0) : (range!.startRowIndex ?? 0));
  const col0 = Number(start ? (start.columnIndex ?? 0) : (range!.startColumnIndex ?? 0));
  const rows = Array.isArray(req.rows) ? (req.rows as Json[]) : [];
  const width = Math.max(0, ...rows.map((r) => (Array.isArray(r.values) ? r.values.length : 0)));
  const endRow = range ? Number(range.endRowIndex ?? tab.rowCount) : row0 + rows.length;
  const endCol = range ? Number(range.endColumnIndex ?? tab.columnCount) : col0 + width;
  if (endRow > tab.rowCount || endCol > tab.columnCount) {
    throw badRequest(
      `${where}Range ('${tab.title}'!R${row0 + 1}C${col0 + 1}:R${endRow}C${endCol}) exceeds grid limits. Max rows: ${tab.rowCount}, max columns: ${tab.columnCount}`,
    );
  }
  if (range) {
    for (let r = row0; r < endRow; r++) {
      for (let c = col0; c < endCol; c++) {
        if (values && cellAt(tab, r, c)) setCell(tab, r, c, null);
        if (notes) setNote(tab, r, c, "");
      }
    }
  }
  rows.forEach((row, i) => {
    const cells = Array.isArray(row.values) ? (row.values as Json[]) : [];
    cells.forEach((cell, j) => {
      if (values) setCell(tab, row0 + i, col0 + j, enteredCell(cell));
      if (notes) setNote(tab, row0 + i, col0 + j, typeof cell?.note === "string" ? cell.note : "");
    });
  });
  return {};
};

/**
 * pasteData: text pasted at `coordinate` as the Sheets UI pastes it, each piece parsed as if typed
 * there (like USER_ENTERED: "=A2*2" is a formula, "42" a number, "2024-01-15" a date); rows split
 * on line breaks, cells on `delimiter`; an empty piece clears its cell. PASTE_NORMAL only, and
 * delimited text only (HTML paste is not emulated, and is refused rather than guessed at). The
 * grid does not grow: pasting past its edge is 400, as updateCells.
 */
export const pasteData: Request = (sheet, req, where) => {
  const at = (req.coordinate ?? {}) as Json;
  const tab = tabById(sheet, at.sheetId ?? 0, where);
  if (typeof req.data !== "string") throw badRequest(`${where}data is required.`);
  if (req.html === true) throw badRequest(`${where}the emulator pastes delimited text only, not HTML.`);
  if (req.type !== undefined && req.type !== "PASTE_NORMAL")
    throw badRequest(`${where}the emulator pastes with type PASTE_NORMAL only; got ${String(req.type)}.`);
  if (typeof req.delimiter !== "string" || req.delimiter === "")
    throw badRequest(`${where}a delimiter is required for non-HTML data.`);
  const row0 = Number(at.rowIndex ?? 0);
  const col0 = Number(at.columnIndex ?? 0);
  const rows = req.data.split(/\r?\n/).map((line) => line.split(req.delimiter as string));
  const width = Math.max(...rows.map((r) => r.length));
  if (row0 + rows.length > tab.rowCount || col0 + width > tab.columnCount) {
    throw badRequest(
      `${where}Range ('${tab.title}'!R${row0 + 1}C${col0 + 1}:R${row0 + rows.length}C${col0 + width}) exceeds grid limits. Max rows: ${tab.rowCount}, max columns: ${tab.columnCount}`,
    );
  }
  const rules = localeRules(sheet.locale);
  rows.forEach((cells, i) =>
    cells.forEach((text, j) =>
      setCell(tab, row0 + i, col0 + j, text === "" ? null : userEnteredCell(text, rules, { timeZone: sheet.timeZone })),
    ),
  );
  return {};
};
