// Google refusing the registrant's own grant makes the sheets concerned due for their access
// re-check now (DECISIONS 18: "at once"), at most once an interval: README.md ("Access due now").
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
    for (const row of await makeAccessCheckDue(where, config().env.ACCESS_RECHECK_INTERVAL_MS))
      await publishSheetQuietly(row);
  } catch (err) {
    log.warn({ ...where, ...errorFields(err) }, "sheets: could not make the access re-check due");
  }
}
