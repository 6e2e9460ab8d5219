// `?formulas=true`: formula cells answer with the formula instead of its result, for keys the
// owner allowed; one grid read per cached copy, only for reads that ask (README.md).
import { ApiError } from "@/lib/errors";
import { withGoogle } from "@/lib/sheets/sheet-access";
import { quoteTab } from "@/lib/sheets/read/read-model";
import type { Formulas, TabData } from "@/lib/sheets/values/rows";
import type { SheetRecord } from "@/lib/sheets/sheet-record";

type Sheet = Pick<SheetRecord, "id" | "access" | "refreshTokenCiphertext">;

export type { Formulas };

interface GridCell {
  formattedValue?: string | null;
  userEnteredValue?: { formulaValue?: string | null } | null;
}

const read = new WeakMap<TabData, Promise<Formulas>>();

async function fetchFormulas(sheet: Sheet, data: TabData): Promise<Formulas> {
  const { data: grid } = await withGoogle(sheet, "spreadsheets.get", (c) =>
    c.sheets.spreadsheets.get({
      spreadsheetId: sheet.id,
      ranges: [quoteTab(data.tab)],
      fields: "sheets(data(rowData(values(formattedValue,userEnteredValue(formulaValue)))))",
    }),
  );
  const rows = grid.sheets?.[0]?.data?.[0]?.rowData ?? [];
  const byNumber = new Map(data.rows.map((r) => [r.rowNumber, r]));
  const formulas: Formulas = new Map();
  rows.forEach((gridRow, i) => {
    const row = byNumber.get(i + 1);
    if (!row) return;
    const cells = (gridRow.values ?? []) as GridCell[];
    data.columns.forEach((column, at) => {
      const cell = cells[column.index];
      const formula = cell?.userEnteredValue?.formulaValue;
      if (!formula || (cell.formattedValue ?? "") !== row.cells[at]) return;
      let ofRow = formulas.get(row.rowNumber);
      if (!ofRow) formulas.set(row.rowNumber, (ofRow = new Map()));
      ofRow.set(column.name, formula);
    });
  });
  return formulas;
}

/** The copy's formulas, read once per copy (concurrent readers share the call; a failure is retried by the next read). */
export function formulasOf(sheet: Sheet, data: TabData): Promise<Formulas> {
  let flight = read.get(data);
  if (!flight) {
    flight = fetchFormulas(sheet, data);
    flight.catch(() => read.delete(data));
    read.set(data, flight);
  }
  return flight;
}

/** `formulas=true` for a key its owner has not allowed to read them. */
export const formulasRefused = () =>
  new ApiError(
    "forbidden",
    'This key may not read formulas. The sheet\'s owner can allow it for this key in the dashboard (API keys, "Can read formulas").',
  );
