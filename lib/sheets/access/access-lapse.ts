// What a lapse of the registrant's access in Google does to the API (DECISIONS 18), as the last
// re-check found it (lib/sheets/access/access-check.ts): suspended, every key is refused before any cache
// is consulted; read-only, every write is refused. Both say why and how to restore it.
import type { SheetRecord } from "@/lib/sheets/sheet-record";
import { ApiError } from "@/lib/errors";

const RESTORE =
  "To restore it, the sheet's owner in Google gives that account access again; then that account proves it again with “Prove access again” on the sheet's page in the dashboard (SheetAPI also notices within a few minutes). Its keys work again as they were.";

/** 403 for every key of a suspended registration: nothing of the sheet is served, not even from a cache. */
export function requireRegistrantCanOpen(sheet: Pick<SheetRecord, "accessState" | "accessNeverProven">): void {
  if (sheet.accessState !== "suspended") return;
  if (sheet.accessNeverProven) {
    throw new ApiError(
      "forbidden",
      "This sheet was registered before SheetAPI asked the registering Google account to prove it can open the sheet, and that proof was not given before the grace period ended, so SheetAPI serves nothing of it. To restore it, the account that registered it signs in to the dashboard and uses “Prove access” on the sheet's page; its keys work again as they were.",
      { reason: "registrant_never_proved" },
    );
  }
  throw new ApiError(
    "forbidden",
    `The Google account that registered this sheet can no longer open it, so SheetAPI serves nothing of it. ${RESTORE}`,
    { reason: "registrant_lost_access" },
  );
}

/** 403 for writes to a registration whose registrant may now only view the sheet (or not even open it). */
export function requireRegistrantCanEdit(sheet: Pick<SheetRecord, "accessState" | "accessNeverProven">): void {
  requireRegistrantCanOpen(sheet);
  if (sheet.accessState !== "read_only") return;
  throw new ApiError(
    "forbidden",
    "The Google account that registered this sheet can no longer edit it (Google now lets it only view the sheet), so the sheet is read-only; nothing was written. To allow writes again, get edit access back in Google Sheets, then prove it again with “Prove access again” on the sheet's page in the dashboard (SheetAPI also notices within a few minutes).",
    { reason: "registrant_lost_edit" },
  );
}

/** True for the refusal of a suspended registration (pages show it as a notice, not an error). */
export const isSuspension = (err: unknown): boolean =>
  err instanceof ApiError &&
  (err.extra.reason === "registrant_lost_access" || err.extra.reason === "registrant_never_proved");

/** Whether writes are allowed now: registered writable, and the registrant's edit access has not lapsed since. */
export const writesAllowed = (sheet: Pick<SheetRecord, "writable" | "accessState">): boolean =>
  sheet.writable && sheet.accessState !== "read_only" && sheet.accessState !== "suspended";
