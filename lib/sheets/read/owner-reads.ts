// The owner's "Try it" in the dashboard: the API's own read path through the signed-in session,
// metered on its own allowance, not the plan's (README.md).
import { currentAccess } from "@/lib/sheets/access/access-check";
import { requireRegistrantCanOpen } from "@/lib/sheets/access/access-lapse";
import { limitAccountAction } from "@/lib/abuse/account-actions";
import { ApiError } from "@/lib/errors";
import { findTab, getRow, listRows } from "./rows-api";
import type { SheetRecord } from "@/lib/sheets/sheet-record";
import { tabDataVersion, type CacheStatus } from "./tab-cache";

export interface OwnerReadRequest {
  tab: string;
  /** Empty: list the tab. */
  rowId?: string;
  /** A list's query string (`limit=5&sort=name`), or a row's (`typed=true`). */
  query?: string;
}

export type OwnerReadAnswer =
  | { status: number; body: Record<string, unknown>; cache: CacheStatus }
  | {
      status: number;
      body: { success: false; error: string; message: string } & Record<string, unknown>;
      cache?: undefined;
    };

export async function ownerRead(
  userId: string,
  sheet: SheetRecord,
  request: OwnerReadRequest,
): Promise<OwnerReadAnswer> {
  try {
    await limitAccountAction(userId, "tryIt");
    // As for a key: nothing of a sheet its registrant can no longer open, not even from a cache.
    sheet = await currentAccess(sheet);
    requireRegistrantCanOpen(sheet);
    const tab = await findTab(sheet, request.tab);
    const params = new URLSearchParams((request.query ?? "").trim().replace(/^\?/, ""));
    const version = await tabDataVersion(sheet.id, tab.name);
    const rowId = request.rowId?.trim();
    // Rows are null-prototype objects (column names are user data); the answer goes to the
    // browser as plain JSON, exactly as the API sends it.
    const plain = (body: Record<string, unknown>) => JSON.parse(JSON.stringify(body)) as Record<string, unknown>;
    if (rowId) {
      // The sheet's owner may read its formulas.
      const { row, cache } = await getRow(sheet, tab, version, rowId, params, { formulas: true });
      return { status: 200, body: plain({ success: true, data: row }), cache };
    }
    const { rows, meta, cache } = await listRows(sheet, tab, version, params, { formulas: true });
    return { status: 200, body: plain({ success: true, data: rows, meta }), cache };
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    return { status: err.status, body: { success: false, error: err.code, message: err.message, ...err.extra } };
  }
}
