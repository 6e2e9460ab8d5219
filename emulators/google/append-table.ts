// Where values.append writes: the "table" Google finds in the input range and appends after, as
// recorded at Google (emulators/google/README.md says how the table is found).
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
  for (let r = rows[0]; r < rows[1]; r++)
    for (let c = Math.max(0, cols[0]); c < cols[1]; c++) if (filled(tab, r, c)) return true;
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
