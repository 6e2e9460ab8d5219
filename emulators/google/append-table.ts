// Where values.append writes. Google: "The input range is used to search for existing data and
// find a 'table' within that range. Values will be appended to the next row of the table,
// starting with the first column of the table." As recorded at Google:
// - the range searched is the input range's own cells: a one-cell range (`A1`) looks at that cell
//   only, a whole tab at every row of it;
// - no value there: the rows are written at the range's top-left cell and no tableRange is given;
// - otherwise the table is the block of cells around the last row of the range holding a value,
//   bounded by blank rows and blank columns (`x | blank | y` in row 1 is the table `A1`), grown
//   downwards and rightwards past the range, never above or left of its top-left cell. So with a
//   whole tab holding two blocks, the rows go after the second; from `A1`, after the first.
import type { GridRange } from "./a1";
import { cellAt, type Tab } from "./model";

export interface Box {
  startRow: number;
  endRow: number;
  startCol: number;
  endCol: number;
}

const filled = (tab: Tab, r: number, c: number) => cellAt(tab, r, c) !== undefined;

function anyFilled(tab: Tab, rows: [number, number], cols: [number, number]): boolean {
  for (let r = rows[0]; r < rows[1]; r++) for (let c = Math.max(0, cols[0]); c < cols[1]; c++) if (filled(tab, r, c)) return true;
  return false;
}

/** The table an append into `grid` extends, or undefined when the range holds no value. */
export function appendTable(tab: Tab, grid: GridRange): Box | undefined {
  const top = grid.startRow ?? 0;
  const left = grid.startCol ?? 0;
  const bottom = Math.min(grid.endRow ?? tab.rows.length, tab.rows.length);
  const right = grid.endCol ?? tab.columnCount;
  let seed: { r: number; c: number } | undefined;
  for (let r = bottom - 1; r >= top && !seed; r--) {
    for (let c = left; c < Math.min(right, tab.rows[r]?.length ?? 0); c++) {
      if (filled(tab, r, c)) {
        seed = { r, c };
        break;
      }
    }
  }
  if (!seed) return undefined;
  const box: Box = { startRow: seed.r, endRow: seed.r + 1, startCol: seed.c, endCol: seed.c + 1 };
  // Grow while a neighbouring line (diagonals included) holds a value: the block's blank border.
  const grow = (side: keyof Box, by: number) => {
    box[side] += by;
    return true;
  };
  for (let grown = true; grown; ) {
    const span: [number, number] = [box.startCol - 1, box.endCol + 1];
    const rows = (): [number, number] => [Math.max(top, box.startRow - 1), Math.min(tab.rows.length, box.endRow + 1)];
    grown =
      (box.endRow < tab.rows.length && anyFilled(tab, [box.endRow, box.endRow + 1], span) && grow("endRow", 1)) ||
      (box.startRow > top && anyFilled(tab, [box.startRow - 1, box.startRow], span) && grow("startRow", -1)) ||
      (box.endCol < tab.columnCount && anyFilled(tab, rows(), [box.endCol, box.endCol + 1]) && grow("endCol", 1)) ||
      (box.startCol > left && anyFilled(tab, rows(), [box.startCol - 1, box.startCol]) && grow("startCol", -1));
  }
  return box;
}
