// What changed between two copies of a tab, as events: rows matched by `id`, or on tabs without
// one (DECISIONS 2) by content, then row number, so a shifted row is not deleted and created again.
// The matching and header changes: README.md ("What changed").
import type { TabData } from "@/lib/sheets/values/rows";

export type RowValues = Record<string, string>;

/** The part of a tab a copy keeps: enough to say what changed and to show rows before and after. */
export interface TabCopy {
  columns: string[];
  hasIdColumn: boolean;
  /** [row number, id, cells in column order] */
  rows: [number, string, string[]][];
  /**
   * Cells just written through the API, as [row id, columns]: the sheet may show them formatted
   * ("10" as "$10.00"), so the next read's differences in exactly those cells are not edits.
   */
  echo?: [string, string[]][];
}

export type Change =
  | { type: "row.created"; rowId: string; row: RowValues }
  | {
      type: "row.updated";
      rowId: string;
      row: RowValues;
      previous: RowValues;
      changes: Record<string, { before: string; after: string }>;
    }
  | { type: "row.deleted"; rowId: string; row: RowValues }
  | { type: "schema.changed"; rowId: null; columns: string[]; previousColumns: string[] };

export const EVENT_TYPES = ["row.created", "row.updated", "row.deleted", "schema.changed"] as const;
export type EventType = (typeof EVENT_TYPES)[number];

export function copyOf(data: Pick<TabData, "columns" | "hasIdColumn" | "rows">): TabCopy {
  return {
    columns: data.columns.map((c) => c.name),
    hasIdColumn: data.hasIdColumn,
    rows: data.rows.map((r) => [r.rowNumber, r.id, r.cells]),
  };
}

type Row = TabCopy["rows"][number];

/** A row as the API shows it: tabs without an id column carry the row number as `id`. */
function rowValues(copy: TabCopy, row: Row): RowValues {
  const entries: [string, string][] = copy.hasIdColumn ? [] : [["id", row[1]]];
  copy.columns.forEach((name, i) => entries.push([name, row[2][i] ?? ""]));
  return Object.fromEntries(entries);
}

export function diffCopies(before: TabCopy, after: TabCopy): Change[] {
  const changes: Change[] = [];
  const sameHeader =
    before.columns.length === after.columns.length && before.columns.every((c, i) => c === after.columns[i]);
  if (!sameHeader)
    changes.push({ type: "schema.changed", rowId: null, columns: after.columns, previousColumns: before.columns });
  // Compared on the columns both copies have: a renamed column is a schema change, not an edit of every row.
  const shared = after.columns.filter((c) => before.columns.includes(c));
  const at = (copy: TabCopy) => new Map(copy.columns.map((c, i) => [c, i]));
  const beforeAt = at(before);
  const afterAt = at(after);
  const sharedCells = (copy: TabCopy, index: Map<string, number>, row: Row) =>
    shared.map((c) => row[2][index.get(c)!] ?? "");

  const echo = new Map(before.echo ?? []);
  const pairs =
    before.hasIdColumn && after.hasIdColumn
      ? pairById(before, after)
      : pairByContent(
          before,
          after,
          (r) => JSON.stringify(sharedCells(before, beforeAt, r)),
          (r) => JSON.stringify(sharedCells(after, afterAt, r)),
        );
  for (const old of pairs.deleted) changes.push({ type: "row.deleted", rowId: old[1], row: rowValues(before, old) });
  for (const [old, now] of pairs.matched) {
    const diff: Record<string, { before: string; after: string }> = {};
    for (const c of shared) {
      const was = old[2][beforeAt.get(c)!] ?? "";
      const is = now[2][afterAt.get(c)!] ?? "";
      if (was !== is && !echo.get(old[1])?.includes(c)) diff[c] = { before: was, after: is };
    }
    if (Object.keys(diff).length)
      changes.push({
        type: "row.updated",
        rowId: now[1],
        row: rowValues(after, now),
        previous: rowValues(before, old),
        changes: diff,
      });
  }
  for (const now of pairs.created) changes.push({ type: "row.created", rowId: now[1], row: rowValues(after, now) });
  return changes;
}

interface Pairs {
  matched: [Row, Row][];
  deleted: Row[];
  created: Row[];
}

/** By id; a repeated id (possible in a hand-edited sheet) pairs its occurrences in order. */
function pairById(before: TabCopy, after: TabCopy): Pairs {
  const keyed = (rows: Row[]) => {
    const seen = new Map<string, number>();
    return rows.map((r) => {
      const n = (seen.get(r[1]) ?? 0) + 1;
      seen.set(r[1], n);
      return [`${r[1]}\u0000${n}`, r] as const;
    });
  };
  const old = new Map(keyed(before.rows));
  const matched: [Row, Row][] = [];
  const created: Row[] = [];
  for (const [key, row] of keyed(after.rows)) {
    const was = old.get(key);
    if (was) {
      matched.push([was, row]);
      old.delete(key);
    } else created.push(row);
  }
  return { matched, deleted: [...old.values()], created };
}

/** Same content first (a shifted row keeps its content), then same row number (an edited row). */
function pairByContent(before: TabCopy, after: TabCopy, oldKey: (r: Row) => string, newKey: (r: Row) => string): Pairs {
  const byContent = new Map<string, Row[]>();
  for (const r of before.rows) {
    const k = oldKey(r);
    const list = byContent.get(k);
    if (list) list.push(r);
    else byContent.set(k, [r]);
  }
  const matched: [Row, Row][] = [];
  const unmatchedNew: Row[] = [];
  for (const r of after.rows) {
    const candidates = byContent.get(newKey(r));
    if (candidates?.length) matched.push([candidates.shift()!, r]);
    else unmatchedNew.push(r);
  }
  const unmatchedOld = new Map<number, Row>();
  for (const list of byContent.values()) for (const r of list) unmatchedOld.set(r[0], r);
  const created: Row[] = [];
  for (const r of unmatchedNew) {
    const same = unmatchedOld.get(r[0]);
    if (same) {
      matched.push([same, r]);
      unmatchedOld.delete(r[0]);
    } else created.push(r);
  }
  return { matched, deleted: [...unmatchedOld.values()].sort((a, b) => a[0] - b[0]), created };
}
