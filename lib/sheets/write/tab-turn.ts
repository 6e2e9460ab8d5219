// The tab's turn: every write to a tab, from any instance, takes the tab's lock and settles the
// tab's earlier writes whose outcome is unknown before it reads the tab. Both write paths take
// their turn here: the coalesced batch path once per turn of batches (write-batches.ts), the
// locked single step path once per write (lockedStep).
import { withLock } from "@/lib/store/lock";
import { errorFields, log } from "@/lib/log";
import { ApiError } from "@/lib/errors";
import type { SheetRecord } from "@/lib/sheets/sheet-record";
import { invalidateTabs } from "@/lib/sheets/read/tab-cache";
import type { TabModel } from "@/lib/sheets/values/tab-model";
import { hasPendingWrites, settlePending } from "./write-guard";

type Sheet = Pick<SheetRecord, "id" | "access" | "refreshTokenCiphertext">;

export const tabLockKey = (sheetId: string, tab: string) => `sheetapi:lock:${sheetId}:${tab}`;

/** Copies of the tab on every instance are out of date. A failed invalidation is logged: the TTL bounds it. */
export async function markOutOfDate(sheet: Sheet, model: TabModel, confirmed = true): Promise<void> {
  await invalidateTabs(sheet, [model.name], { confirmed }).catch((err: unknown) =>
    log.warn({ sheet: sheet.id, ...errorFields(err) }, "rows: cache invalidation failed"),
  );
}

/**
 * The locked single step path, for writes that do not share batches (writes by value, the id
 * column): the tab's turn taken, its earlier writes settled, then `step` (which reads the tab
 * itself and sends one guarded batch). The tab's copies on every instance are out of date after
 * it, its siblings' are not.
 */
export async function lockedStep<T>(sheet: Sheet, model: TabModel, step: () => Promise<T>): Promise<T> {
  const result = await withLock(tabLockKey(sheet.id, model.name), async () => {
    await settlePending(sheet, model);
    return step();
  });
  await markOutOfDate(sheet, model);
  return result;
}

/**
 * A 504 tells the client to check with a GET of the row, so that GET must not answer 404 while
 * the write it checks may still land. When the row is not found and the tab has writes whose
 * outcome is unknown, they are settled first under the tab's lock (each has landed, or a fence
 * now keeps it from ever landing) and the row is read again from Google: the answer then holds.
 * Google not confirming the settlement answers 503, never a 404 that may turn out wrong.
 */
export async function rowAfterUnknownWrites<T>(
  sheet: Sheet,
  model: TabModel,
  read: (fresh: boolean) => Promise<T>,
): Promise<T> {
  try {
    return await read(false);
  } catch (err) {
    if (!(err instanceof ApiError && err.code === "not_found") || !(await hasPendingWrites(sheet.id, model.name)))
      throw err;
  }
  await withLock(tabLockKey(sheet.id, model.name), () => settlePending(sheet, model));
  // A settled write may have landed: no copy from before it answers the read again.
  await invalidateTabs(sheet, [model.name], { confirmed: false });
  return read(true);
}
