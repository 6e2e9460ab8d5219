// Which of the service's Google identities (service accounts, GOOGLE_SERVICE_ACCOUNTS) a sheet is
// shared with. Each identity has its own per-minute Sheets quota, so spreading sheets over several
// multiplies the busy sheets the service can serve. The choice is made per customer account, once
// and before any sheet is shared: the first time an account needs an address (the dashboard shows
// it), it is given the identity the fewest accounts have, and keeps it (users.service_account).
// Registration checks that address first and the service's others after, so a sheet shared with
// another of them registers too; the identity a sheet is registered with stays with the sheet
// (sheets.service_account) for good. An identity added later takes the new accounts.
import { assignServiceAccount, countUsersByServiceAccount, getUserById } from "@/db/queries/users";
import { config } from "@/lib/env";

const configured = () => config().google.serviceAccounts.map((a) => a.email);

/** The service account the account `userId` is asked to share its sheets with. */
export async function serviceAccountFor(userId: string): Promise<string> {
  const emails = configured();
  if (emails.length === 1) return emails[0]!;
  const kept = (await getUserById({ id: userId }))?.serviceAccount;
  if (kept && emails.includes(kept)) return kept;
  const load = await countUsersByServiceAccount(emails);
  const leastLoaded = emails.reduce((best, e) => ((load.get(e) ?? 0) < (load.get(best) ?? 0) ? e : best));
  return (await assignServiceAccount({ id: userId, email: leastLoaded, configured: emails })) ?? leastLoaded;
}

/** The service accounts to try when registering a sheet: the sheet's own (if any), the account's, then the rest. */
export async function serviceAccountsToTry(userId: string, current?: string | null): Promise<string[]> {
  const emails = configured();
  const first = [current, await serviceAccountFor(userId)].filter((e): e is string => Boolean(e) && emails.includes(e!));
  return [...new Set([...first, ...emails])];
}
