// A spreadsheet holds at most 10 million cells (rows x columns of every tab, empty or not).
// Growth is checked before anything is allocated, so a request for a huge grid costs nothing.
import { badRequest } from "./errors";
import type { Spreadsheet, Tab } from "./model";

export const MAX_CELLS = 10_000_000;

/** Throws Google's 400 when `tab` (or a new tab) at the given size would take the spreadsheet past the limit. */
export function ensureRoom(
  sheet: Spreadsheet,
  tab: Tab | undefined,
  rowCount: number,
  columnCount: number,
  prefix = "",
): void {
  let total = rowCount * columnCount;
  for (const t of sheet.tabs) if (t !== tab) total += t.rowCount * t.columnCount;
  if (total > MAX_CELLS) {
    throw badRequest(
      `${prefix}This action would increase the number of cells in the workbook above the limit of ${MAX_CELLS} cells.`,
    );
  }
}
