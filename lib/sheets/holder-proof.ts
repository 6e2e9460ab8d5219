// A contested registration asks Google again about the account holding it (DECISIONS 18: proof is
// current, not historical): an editor who registered a sheet and was later removed from it, or
// made a viewer, or whose grant was revoked, must not keep it from a current editor. One Drive
// files.get with the holder's own grant, spent only when another account proves it can edit.
import type { Sheet } from "@/db/schema";
import { needsPicker, proveAccess } from "./proof";

/**
 * True while Google still confirms, with one of the holder's grants, that the holder can edit the
 * sheet. Google refusing every grant, or no usable grant left (revoked: `invalid_grant`), is a
 * lapse; any other failure (Google unavailable, quota) is thrown, so an outage never moves a sheet.
 */
export async function holderStillEdits(existing: Sheet): Promise<boolean> {
  try {
    return (await proveAccess(existing.userId, existing.id)).level === "edit";
  } catch (err) {
    if (needsPicker(err)) return false;
    throw err;
  }
}
