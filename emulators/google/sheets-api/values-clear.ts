// values.clear and values.batchClear: the values of ranges cleared, formats and notes kept.
import { formatRange } from "../a1";
import { touch, type Spreadsheet } from "../model";
import { resolveRange, bounded } from "./ranges";

type Json = Record<string, unknown>;

/** Clears the values of a range (formats and notes stay); answers the range cleared. */
function clearRange(sheet: Spreadsheet, range: string): string {
  const { tab, grid } = resolveRange(sheet, range);
  const b = bounded(tab, grid);
  for (let r = b.startRow; r < Math.min(b.endRow, tab.rows.length); r++) {
    for (let c = b.startCol; c < Math.min(b.endCol, tab.rows[r]?.length ?? 0); c++) tab.rows[r]![c] = null;
  }
  return formatRange(tab.title, b);
}

export function clearValues(sheet: Spreadsheet, range: string): Json {
  const clearedRange = clearRange(sheet, range);
  touch(sheet);
  return { spreadsheetId: sheet.spreadsheetId, clearedRange };
}

export function batchClearValues(sheet: Spreadsheet, body: Json): Json {
  const ranges = Array.isArray(body.ranges) ? body.ranges.map(String) : [];
  const clearedRanges = ranges.map((r) => clearRange(sheet, r));
  if (ranges.length) touch(sheet);
  return { spreadsheetId: sheet.spreadsheetId, clearedRanges };
}
