// How written strings are entered (DECISIONS 4): RAW by default (text stays text, no formula
// injection), USER_ENTERED when the owner opts the sheet in, done by pasteData inside the write's
// own guarded batch. Why pasteData, and which strings and columns are never pasted: README.md
// ("How strings are entered").
import type { sheets_v4 } from "@googleapis/sheets";
import type { SheetRecord } from "@/lib/sheets/sheet-record";
import type { SheetsRequest } from "./write-guard";

type Sheet = Partial<Pick<SheetRecord, "userEnteredWrites">>;

// Every character a paste might take for a cell or row break: tab, CR, LF, and VT, FF, NEL, and
// the line and paragraph separators (U+2028, U+2029), which Unicode counts as line breaks.
const BREAKS = /[\t\r\n\v\f\u0085\u2028\u2029]/;
const pastable = (v: string) => v !== "" && !BREAKS.test(v) && !v.startsWith('"');

/** The index of the tab's `id` column, if it has one: the column asEntered leaves as written. */
export function idColumnOf(data: {
  columns: { name: string; index: number }[];
  hasIdColumn: boolean;
}): number | undefined {
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
      if (run)
        out.push({
          pasteData: {
            coordinate: { sheetId: start.sheetId ?? 0, rowIndex: (start.rowIndex ?? 0) + i, columnIndex: run.column },
            data: run.values.join("\t"),
            delimiter: "\t",
            type: "PASTE_NORMAL",
          },
        });
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
