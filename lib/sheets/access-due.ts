// Google refusing the registrant's own grant is news about their access that cannot wait for the
// next scheduled re-check (DECISIONS 18: "at once"): the sheets concerned are made due now, and
// every instance sees it on its next request, which asks Google (lib/sheets/access/access-check.ts).
// Once an interval at most: that check asks with the very grant Google refused (for a sheet
// reached through it), so they agree, and should they not, refusals do not become a check each.
import { makeAccessCheckDue } from "@/db/queries/sheets";
import { config } from "@/lib/env";
import { errorFields, log } from "@/lib/log";
import { publishSheetQuietly } from "@/lib/sheets/sheet-record";

/**
 * `{ id }`: a call made for the sheet with the registrant's grant was refused (403/404).
 * `{ userId }`: one of the account's grants was revoked (`invalid_grant`), so each of its sheets.
 * Never throws: the refusal being handled is the caller's answer.
 */
export async function recheckAccessSoon(where: { id: string } | { userId: string }): Promise<void> {
  try {
    for (const row of await makeAccessCheckDue(where, config().env.ACCESS_RECHECK_INTERVAL_MS)) await publishSheetQuietly(row);
  } catch (err) {
    log.warn({ ...where, ...errorFields(err) }, "sheets: could not make the access re-check due");
  }
}
