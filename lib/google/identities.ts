// Which of the service's Google identities (service accounts, GOOGLE_SERVICE_ACCOUNTS) a sheet is
// shared with. Each identity has its own per-minute Sheets quota, so spreading sheets over several
// multiplies the busy sheets the service can serve. The choice is made per customer account, before
// any sheet is shared: the dashboard shows each account one address, picked by a hash of the
// account's id (stable across instances and restarts, with no state to keep). Registration then
// checks that address first and the others after, so a sheet shared with another of the service's
// addresses (an earlier suggestion, before an identity was added) registers too; the identity it
// is registered with is kept with the sheet (sheets.service_account) for good.
import { createHash } from "node:crypto";
import { config } from "@/lib/env";

/** The service account the account `userId` is asked to share its sheets with. */
export function suggestedServiceAccount(userId: string): string {
  const accounts = config().google.serviceAccounts;
  const slot = createHash("sha256").update(userId).digest().readUInt32BE(0) % accounts.length;
  return accounts[slot]!.email;
}

/** The service accounts to try when registering a sheet: the sheet's own (if any), the account's, then the rest. */
export function serviceAccountsToTry(userId: string, current?: string | null): string[] {
  const all = config().google.serviceAccounts.map((a) => a.email);
  const first = [current, suggestedServiceAccount(userId)].filter((e): e is string => Boolean(e) && all.includes(e!));
  return [...new Set([...first, ...all])];
}
