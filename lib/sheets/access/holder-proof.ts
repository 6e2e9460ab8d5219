// A contested registration asks Google again about the account holding it (DECISIONS 18), so a
// holder whose access lapsed does not keep a sheet from a current editor (README.md).
import type { Sheet } from "@/db/schema";
import { recheckAccess } from "@/lib/sheets/access/access-check";

/**
 * True while Google still confirms, with one of the holder's grants, that the holder can edit the
 * sheet. Google refusing every grant, or no usable grant left (revoked: `invalid_grant`), is a
 * lapse; any other failure (Google unavailable, quota) is thrown, so an outage never moves a sheet.
 */
export async function holderStillEdits(existing: Sheet): Promise<boolean> {
  return existing.proof === "edit" && (await recheckAccess(existing)).accessState === "current";
}
