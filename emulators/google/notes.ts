// Cell notes (CellData.note): kept beside the values, since a note stays when its cell's value is
// cleared and a cell may hold a note and nothing else. They move with their rows and columns.
import type { Tab } from "./model";

const key = (r: number, c: number) => `${r}:${c}`;

export function noteAt(tab: Tab, r: number, c: number): string | undefined {
  return tab.notes?.[key(r, c)];
}

/** Sets a note; an empty one removes it, as the Sheets UI does. */
export function setNote(tab: Tab, r: number, c: number, note: string): void {
  tab.notes ??= {};
  if (note) tab.notes[key(r, c)] = note;
  else delete tab.notes[key(r, c)];
}

/** Index one past the last row holding a note in row `r` or in any row (r undefined). */
export function noteExtent(tab: Tab): { rows: number; columnsOf: (r: number) => number } {
  let rows = 0;
  const columns = new Map<number, number>();
  for (const k of Object.keys(tab.notes ?? {})) {
    const [r, c] = k.split(":").map(Number) as [number, number];
    rows = Math.max(rows, r + 1);
    columns.set(r, Math.max(columns.get(r) ?? 0, c + 1));
  }
  return { rows, columnsOf: (r) => columns.get(r) ?? 0 };
}

/**
 * Moves notes as rows or columns are inserted (`count` > 0) or deleted (`count` < 0) at `start`;
 * the notes of deleted cells go with them.
 */
export function shiftNotes(tab: Tab, dimension: "ROWS" | "COLUMNS", start: number, count: number): void {
  if (!tab.notes) return;
  const moved: Record<string, string> = {};
  for (const [k, note] of Object.entries(tab.notes)) {
    let [r, c] = k.split(":").map(Number) as [number, number];
    const at = dimension === "ROWS" ? r : c;
    if (count < 0 && at >= start && at < start - count) continue;
    const shifted = at >= start ? at + count : at;
    if (dimension === "ROWS") r = shifted;
    else c = shifted;
    moved[key(r, c)] = note;
  }
  tab.notes = moved;
}
