// How written strings are entered (DECISIONS 4): RAW by default, stored as text exactly as sent,
// so `=IMPORTXML(...)` stays text (no formula injection). An owner can opt a sheet in to
// USER_ENTERED writes: strings are then parsed as if typed into the Sheets UI, so "42" is a
// number, "2024-01-15" a date, "TRUE" a boolean and "=A2*2" a formula. JSON numbers, booleans
// and null are written as they are either way, as Google does for non-string values.
//
// updateCells cannot do this: its userEnteredValue.stringValue is always text. values.update
// with valueInputOption=USER_ENTERED can, but it is a call of its own, outside the atomic,
// guarded batch that writes the row, its marker and its position together (write-guard.ts).
// Inside the batch, pasteData is what parses text as typed: each run of adjacent string cells
// of a row written by updateCells is pasted over itself, tab-delimited, in the same batch, so
// the write stays one all-or-nothing request and costs no extra Google call. A string holding a
// tab or any line break (which a paste may split) or starting with a double quote (which a
// paste may read as a quoted field) is not pasted: it stays text, as the UI would show it.
// The id column is never pasted: an id names its row (DECISIONS 2), and a parsed id ("1e3" shown
// as 1.00E+03, "1/2" as a date) would no longer find the row it was created with, nor refuse
// a second row with the same id.
import type { sheets_v4 } from "@googleapis/sheets";
import type { SheetRecord } from "@/lib/sheets/sheet-record";
import type { SheetsRequest } from "./write-guard";

type Sheet = Partial<Pick<SheetRecord, "userEnteredWrites">>;

// Every character a paste might take for a cell or row break: tab, CR, LF, and VT, FF, NEL, and
// the line and paragraph separators (U+2028, U+2029), which Unicode counts as line breaks.
const BREAKS = /[\t\r\n\v\f\u0085\u2028\u2029]/;
const pastable = (v: string) => v !== "" && !BREAKS.test(v) && !v.startsWith('"');

/** The index of the tab's `id` column, if it has one: the column asEntered leaves as written. */
export function idColumnOf(data: { columns: { name: string; index: number }[]; hasIdColumn: boolean }): number | undefined {
  return data.hasIdColumn ? data.columns.find((c) => c.name === "id")?.index : undefined;
}

/** pasteData requests for the string cells an updateCells request writes, the id column's aside. */
function pastesFor(update: sheets_v4.Schema$UpdateCellsRequest, idColumn: number | undefined): SheetsRequest[] {
  const start = update.start;
  if (!start || !/(^|,)\s*userEnteredValue\s*(,|$)/.test(update.fields ?? "")) return [];
  const out: SheetsRequest[] = [];
  (update.rows ?? []).forEach((row, i) => {
    let run: { column: number; values: string[] } | undefined;
    const flush = () => {
      if (run) out.push({ pasteData: { coordinate: { sheetId: start.sheetId ?? 0, rowIndex: (start.rowIndex ?? 0) + i, columnIndex: run.column }, data: run.values.join("\t"), delimiter: "\t", type: "PASTE_NORMAL" } });
      run = undefined;
    };
    (row.values ?? []).forEach((cell, j) => {
      const text = cell.userEnteredValue?.stringValue;
      if (typeof text !== "string" || !pastable(text) || (start.columnIndex ?? 0) + j === idColumn) return flush();
      run ??= { column: (start.columnIndex ?? 0) + j, values: [] };
      run.values.push(text);
    });
    flush();
  });
  return out;
}

/** The write's requests as the sheet's owner chose: unchanged (RAW), or with its strings entered as typed. */
export function asEntered(sheet: Sheet, requests: SheetsRequest[], idColumn?: number): SheetsRequest[] {
  if (!sheet.userEnteredWrites) return requests;
  // Each paste right after its updateCells: later requests (row inserts, deletes) may move rows.
  return requests.flatMap((r) => (r.updateCells ? [r, ...pastesFor(r.updateCells, idColumn)] : [r]));
}
