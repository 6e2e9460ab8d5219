// A contested registration asks Google again about the account holding it (DECISIONS 18: proof is
// current, not historical, and another account claiming the sheet is news that cannot wait for the
// next scheduled re-check): an editor who registered a sheet and was later removed from it, or
// made a viewer, or whose grant was revoked, must not keep it from a current editor. One Drive
// files.get with the holder's own grant, spent only when another account proves it can edit; the
// answer is recorded for the holder's registration too (lib/sheets/access/access-check.ts).
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
