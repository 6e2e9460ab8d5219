// A1 notation as the Sheets API reads it: `Tab!A1:C9`, `'My tab'!A:C`, `Tab!2:5`, `A1` (first tab).
// Rows and columns here are 0-based; `end*` bounds are exclusive; undefined means "to the grid's edge".

export interface GridRange {
  startRow?: number;
  endRow?: number;
  startCol?: number;
  endCol?: number;
}

export interface ParsedRange {
  /** Tab title, or undefined when the range names no tab (the first tab is meant). */
  tab?: string;
  grid: GridRange;
}

export class RangeParseError extends Error {}

/** `A` -> 0, `AA` -> 26: the emulator's own, so it never agrees with the service by sharing code. */
export function columnToIndex(letters: string): number {
  return [...letters.toUpperCase()].reduce((n, ch) => n * 26 + ch.charCodeAt(0) - 64, 0) - 1;
}

export function indexToColumn(index: number): string {
  let out = "";
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) out = String.fromCharCode(65 + ((n - 1) % 26)) + out;
  return out;
}

const CELL = /^([A-Za-z]{1,3})?(\d+)?$/;

function parseCell(ref: string): { col?: number; row?: number } {
  const m = CELL.exec(ref);
  if (!m || (!m[1] && !m[2])) throw new RangeParseError(ref);
  const row = m[2] !== undefined ? Number(m[2]) - 1 : undefined;
  if (row !== undefined && row < 0) throw new RangeParseError(ref);
  return { col: m[1] ? columnToIndex(m[1]) : undefined, row };
}

/** Parses the cell part of a range (`A1:C9`, `A:C`, `2:5`, `B3`). */
export function parseGrid(ref: string): GridRange {
  const [a, b, extra] = ref.split(":");
  if (extra !== undefined || a === undefined || a === "") throw new RangeParseError(ref);
  const start = parseCell(a);
  if (b === undefined) {
    // A single cell, a single column (`A`) or a single row (`3`).
    return {
      startRow: start.row,
      endRow: start.row !== undefined ? start.row + 1 : undefined,
      startCol: start.col,
      endCol: start.col !== undefined ? start.col + 1 : undefined,
    };
  }
  const end = parseCell(b);
  // A reversed range (`D4:A1`) names the same cells as `A1:D4`.
  if (start.row !== undefined && end.row !== undefined && start.row > end.row)
    [start.row, end.row] = [end.row, start.row];
  if (start.col !== undefined && end.col !== undefined && start.col > end.col)
    [start.col, end.col] = [end.col, start.col];
  return {
    startRow: start.row ?? (start.col !== undefined && end.row !== undefined ? 0 : undefined),
    endRow: end.row !== undefined ? end.row + 1 : undefined,
    startCol: start.col ?? (start.row !== undefined && end.col !== undefined ? 0 : undefined),
    endCol: end.col !== undefined ? end.col + 1 : undefined,
  };
}

/** Splits `'It''s'!A1:B2` into the tab title and the cell part, honouring quotes. */
export function splitRange(range: string): { tab?: string; cells?: string } {
  if (range.startsWith("'")) {
    let i = 1;
    let title = "";
    while (i < range.length) {
      const ch = range[i]!;
      if (ch === "'") {
        if (range[i + 1] === "'") {
          title += "'";
          i += 2;
          continue;
        }
        break;
      }
      title += ch;
      i++;
    }
    if (i >= range.length) throw new RangeParseError(range);
    const rest = range.slice(i + 1);
    if (rest === "") return { tab: title };
    if (!rest.startsWith("!")) throw new RangeParseError(range);
    return { tab: title, cells: rest.slice(1) || undefined };
  }
  const bang = range.lastIndexOf("!");
  if (bang === -1) return { cells: range };
  return { tab: range.slice(0, bang), cells: range.slice(bang + 1) || undefined };
}

/** Quotes a tab title the way Google does in the ranges it returns. */
export function quoteTab(title: string): string {
  if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(title) && !/^[A-Za-z]{1,3}\d+$/.test(title)) return title;
  return `'${title.replace(/'/g, "''")}'`;
}

export function formatRange(tab: string, r: Required<GridRange>): string {
  const from = `${indexToColumn(r.startCol)}${r.startRow + 1}`;
  const to = `${indexToColumn(r.endCol - 1)}${r.endRow}`;
  return `${quoteTab(tab)}!${from === to ? from : `${from}:${to}`}`;
}
