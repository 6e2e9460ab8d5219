// Merged cells (sheets[].merges, listed in the order they were made): mergeCells keeps the top-left value of each merge and clears the
// others, as the Sheets UI warns it will; unmergeCells splits every merge inside a range. A merge
// that only partly overlaps the range is refused, as Google refuses it.
import { badRequest } from "./errors";
import { setNote } from "./notes";
import { setCell, type Tab } from "./model";

export interface Merge {
  startRowIndex: number;
  endRowIndex: number;
  startColumnIndex: number;
  endColumnIndex: number;
}

type Json = Record<string, unknown>;

const inside = (m: Merge, r: Merge) =>
  m.startRowIndex >= r.startRowIndex &&
  m.endRowIndex <= r.endRowIndex &&
  m.startColumnIndex >= r.startColumnIndex &&
  m.endColumnIndex <= r.endColumnIndex;
const overlaps = (m: Merge, r: Merge) =>
  m.startRowIndex < r.endRowIndex &&
  r.startRowIndex < m.endRowIndex &&
  m.startColumnIndex < r.endColumnIndex &&
  r.startColumnIndex < m.endColumnIndex;

/** A GridRange of a request within the tab's grid (open ends reach the grid's edge). */
export function gridRangeOf(tab: Tab, range: Json, where: string): Merge {
  const r: Merge = {
    startRowIndex: Number(range.startRowIndex ?? 0),
    endRowIndex: Number(range.endRowIndex ?? tab.rowCount),
    startColumnIndex: Number(range.startColumnIndex ?? 0),
    endColumnIndex: Number(range.endColumnIndex ?? tab.columnCount),
  };
  if (r.endRowIndex > tab.rowCount || r.endColumnIndex > tab.columnCount) {
    throw badRequest(
      `${where}Range ('${tab.title}'!R${r.startRowIndex + 1}C${r.startColumnIndex + 1}:R${r.endRowIndex}C${r.endColumnIndex}) exceeds grid limits. Max rows: ${tab.rowCount}, max columns: ${tab.columnCount}`,
    );
  }
  if (r.startRowIndex >= r.endRowIndex || r.startColumnIndex >= r.endColumnIndex)
    throw badRequest(`${where}The range must not be empty.`);
  return r;
}

function refusePartial(tab: Tab, range: Merge, where: string): void {
  if ((tab.merges ?? []).some((m) => overlaps(m, range) && !inside(m, range))) {
    throw badRequest(`${where}You must select all cells in a merged range to merge or unmerge them.`);
  }
}

export function mergeCells(tab: Tab, req: Json, where: string): void {
  const range = gridRangeOf(tab, (req.range ?? {}) as Json, where);
  const type = req.mergeType ?? "MERGE_ALL";
  refusePartial(tab, range, where);
  const merges: Merge[] = [];
  if (type === "MERGE_ALL") merges.push(range);
  else if (type === "MERGE_ROWS") {
    for (let r = range.startRowIndex; r < range.endRowIndex; r++)
      merges.push({ ...range, startRowIndex: r, endRowIndex: r + 1 });
  } else if (type === "MERGE_COLUMNS") {
    for (let c = range.startColumnIndex; c < range.endColumnIndex; c++)
      merges.push({ ...range, startColumnIndex: c, endColumnIndex: c + 1 });
  } else throw badRequest(`${where}mergeType must be MERGE_ALL, MERGE_ROWS or MERGE_COLUMNS.`);
  const kept = (tab.merges ?? []).filter((m) => !inside(m, range));
  tab.merges = [
    ...kept,
    ...merges.filter((m) => m.endRowIndex - m.startRowIndex > 1 || m.endColumnIndex - m.startColumnIndex > 1),
  ];
  for (const m of merges) {
    for (let r = m.startRowIndex; r < m.endRowIndex; r++) {
      for (let c = m.startColumnIndex; c < m.endColumnIndex; c++) {
        if (r === m.startRowIndex && c === m.startColumnIndex) continue;
        if (tab.rows[r]?.[c]) setCell(tab, r, c, null);
        setNote(tab, r, c, "");
      }
    }
  }
}

export function unmergeCells(tab: Tab, req: Json, where: string): void {
  const range = gridRangeOf(tab, (req.range ?? {}) as Json, where);
  refusePartial(tab, range, where);
  tab.merges = (tab.merges ?? []).filter((m) => !inside(m, range));
}

/**
 * Moves merges as rows or columns are inserted (`count` > 0) or deleted (`count` < 0) at `start`:
 * a merge past the change moves, one across it stretches or shrinks, one deleted whole goes.
 */
export function shiftMerges(tab: Tab, dimension: "ROWS" | "COLUMNS", start: number, count: number): void {
  if (!tab.merges) return;
  const [from, to] =
    dimension === "ROWS"
      ? (["startRowIndex", "endRowIndex"] as const)
      : (["startColumnIndex", "endColumnIndex"] as const);
  const move = (i: number, isEnd: boolean) => {
    if (count > 0) return i > start || (i === start && !isEnd) ? i + count : i;
    const end = start - count;
    return i <= start ? i : i >= end ? i + count : start;
  };
  tab.merges = tab.merges
    .map((m) => ({ ...m, [from]: move(m[from], false), [to]: move(m[to], true) }))
    .filter(
      (m) =>
        m.endRowIndex - m.startRowIndex > 0 &&
        m.endColumnIndex - m.startColumnIndex > 0 &&
        (m.endRowIndex - m.startRowIndex > 1 || m.endColumnIndex - m.startColumnIndex > 1),
    );
}

/** sheets[].merges as Google lists them: sheetId left out when it is 0, as zeros are. */
export function mergesOf(tab: Tab): Json[] | undefined {
  if (!tab.merges?.length) return undefined;
  return tab.merges.map((m) => ({ ...(tab.sheetId ? { sheetId: tab.sheetId } : {}), ...m }));
}
