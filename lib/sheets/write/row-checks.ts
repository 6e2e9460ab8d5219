// Checks a by-id write makes of the tab: its columns before the tab's turn (on the cached copy,
// at no cost of quota), and its row under the turn (found, and as the client read it).
import { ApiError } from "@/lib/errors";
import { matchesAny } from "@/lib/http/conditional";
import { rowEtag, type TabData, type TabRow } from "@/lib/sheets/values/rows";
import { currentCopy } from "@/lib/sheets/read/tab-cache";
import { findRow } from "@/lib/sheets/read/tab-index";
import type { TabModel } from "@/lib/sheets/values/tab-model";
import { checkColumns, type RowInput } from "./row-input";
import type { WriteSheet } from "./write-request";

/**
 * Refuses a write naming a column that the tab's current cached copy does not have (400) before
 * it waits for the tab's turn and reads the tab: a read would not show that column either
 * (DECISIONS 12: an edit in the sheet shows within the TTL), and a typo costs no Google read.
 * Passing here proves nothing: the write checks its columns again on the tab as read under the lock.
 */
export async function refuseUnknownColumns(
  sheet: WriteSheet,
  model: TabModel,
  rows: RowInput[],
  update: boolean,
): Promise<void> {
  const copy = await currentCopy(sheet, model);
  if (copy) checkColumns(rows, copy, { update });
}

/** The row as found on a fresh read, checked against the client's If-Match (optimistic concurrency). */
export function currentRow(data: TabData, rowId: string, ifMatch: string | null): TabRow {
  const row = findRow(data, rowId);
  if (!row) throw new ApiError("not_found", `No row with id "${rowId}" in the tab "${data.tab}".`);
  if (ifMatch !== null && !matchesAny(ifMatch, rowEtag(data, row))) {
    const moved = data.hasIdColumn
      ? "changed"
      : "changed or another row now has this row number (rows above were inserted or deleted)";
    throw new ApiError(
      "precondition_failed",
      `Row ${rowId} ${moved} since you read it (its ETag is now ${rowEtag(data, row)}); nothing was changed. Read it again and retry.`,
      {},
      { ETag: rowEtag(data, row) },
    );
  }
  return row;
}
