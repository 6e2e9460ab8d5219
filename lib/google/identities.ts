// Which of the service's Google identities (GOOGLE_SERVICE_ACCOUNTS) a sheet is shared with: each
// has its own Sheets quota, so an account is given the least used one, once (README.md).
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
  const first = [current, await serviceAccountFor(userId)].filter(
    (e): e is string => Boolean(e) && emails.includes(e!),
  );
  return [...new Set([...first, ...emails])];
}
