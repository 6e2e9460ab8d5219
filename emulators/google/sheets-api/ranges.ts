// A1 ranges as the Sheets API reads them: a tab and cells, bounded by the tab's grid.
import { parseGrid, RangeParseError, splitRange, type GridRange } from "../a1";
import { unparsableRange } from "../errors";
import type { Spreadsheet, Tab } from "../model";

export type Bounds = Required<GridRange>;

export interface ResolvedRange {
  tab: Tab;
  grid: GridRange;
}

export function resolveRange(sheet: Spreadsheet, range: string): ResolvedRange {
  try {
    const { tab: title, cells } = splitRange(range);
    if (title !== undefined) {
      const tab = sheet.tabs.find((t) => t.title === title);
      if (!tab) throw unparsableRange(range);
      return { tab, grid: cells ? parseGrid(cells) : {} };
    }
    // Unquoted A1 notation (`A1`, `B2:C9`, `A:C`, `2:5`) is cells of the first visible sheet, even
    // when a tab has that title (`'A1'` names the tab). Any other bare name is a tab's title
    // when one matches; otherwise cells of the first sheet.
    const bare = cells ?? "";
    const first = sheet.tabs.find((t) => !t.hidden) ?? sheet.tabs[0]!;
    if (/^[A-Za-z]{1,3}\d+$/.test(bare) || bare.includes(":")) return { tab: first, grid: parseGrid(bare) };
    const named = sheet.tabs.find((t) => t.title === bare);
    if (named) return { tab: named, grid: {} };
    return { tab: first, grid: parseGrid(bare) };
  } catch (err) {
    if (err instanceof RangeParseError) throw unparsableRange(range);
    throw err;
  }
}

export function bounded(tab: Tab, grid: GridRange): Bounds {
  return {
    startRow: grid.startRow ?? 0,
    endRow: grid.endRow ?? tab.rowCount,
    startCol: grid.startCol ?? 0,
    endCol: grid.endCol ?? tab.columnCount,
  };
}

/** A boolean query parameter: Google reads `true`, `True` and `TRUE` alike. */
export const isTrue = (param: string | null) => param?.toLowerCase() === "true";
