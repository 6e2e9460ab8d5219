// Proof of access (DECISIONS 18): before a sheet is registered, Google confirms that the signed-in
// person's own Google account can open it (view) or edit it. The question goes to Drive's
// files.get with the person's grant: drive.file answers only for files they picked in the Google
// Picker, so a spreadsheet id alone (they travel in every link) proves nothing.
import { flagGrantNeedsReauth, listGrants } from "@/db/queries/grants";
import type { GoogleGrant, SheetProof } from "@/db/schema";
import { decryptSecret } from "@/lib/token-crypto";
import { config } from "@/lib/env";
import { createGoogleClients, DRIVE_FILE_SCOPE, oauthClient } from "@/lib/google/clients";
import { readGoogleError } from "@/lib/google/errors";
import { ApiError } from "@/lib/errors";
import { metrics } from "@/lib/observability/metrics";
import { recheckAccessSoon } from "@/lib/sheets/access-due";
import { isNoAccess, translateGoogleError } from "@/lib/sheets/sheet-access";
import { googleOutcomeOf } from "@/lib/google/outcomes";
import { reserveGoogleCall } from "@/lib/google/quota";

export interface Proof {
  level: Exclude<SheetProof, "none">;
  /** Drive's `ownedByMe`: the grant's Google account owns the file, so it may always take it back. */
  owner: boolean;
  grant: GoogleGrant;
}

const refreshTokenOf = (grant: GoogleGrant) =>
  decryptSecret(grant.refreshTokenCiphertext, config().secrets.encryptionKey);
/** A grant Google has not refused (revoked) that lets SheetAPI ask Drive about the files the person picked. */
export const usable = (g: GoogleGrant) => !g.needsReauth && g.scope.split(/\s+/).includes(DRIVE_FILE_SCOPE);

/**
 * How to give SheetAPI a sheet, for the messages below. POST /register takes a signed-in session,
 * so whoever reads these is in a browser with the dashboard at hand; the same flow by link is
 * GET /auth/google?sheet_url= (README).
 */
const HOW =
  "Choose it with “Choose a sheet from Google Drive” on the dashboard: Google then confirms that you can open it.";

/**
 * No grant to ask Google with. `revoked`: the account connected Google, but Google refuses that
 * grant now (removed in the Google Account's settings, or expired): saying "not connected yet"
 * would send the person looking for a step they already took.
 */
export function noGrant({ revoked = false } = {}): ApiError {
  if (revoked) {
    return new ApiError(
      "forbidden",
      "Registering a sheet needs Google to confirm that you can open it, and Google no longer accepts the access to your Google Drive files this account gave SheetAPI (it was removed in your Google Account's settings, or it expired). Connect Google again with “Choose a sheet from Google Drive”, then choose this one in Google Drive.",
      { reason: "google_grant_revoked" },
    );
  }
  return new ApiError(
    "forbidden",
    `Registering a sheet needs Google to confirm that you can open it. Signing in shared only your name and email address, so this account has not connected Google yet for files: use “Choose a sheet from Google Drive” on the dashboard to let SheetAPI see the spreadsheets you choose (only those), then choose this one in Google Drive.`,
    { reason: "no_google_grant" },
  );
}

/**
 * Google did not confirm access. For a sheet the person just named (`pasted`) that is the usual
 * first time, not a failure: choosing it in Drive is the next step. For a sheet proven before, it
 * means Google now refuses.
 */
function notProven(id: string, emails: string[], pasted: boolean): ApiError {
  const who = emails.join(" or ");
  return new ApiError(
    "forbidden",
    pasted
      ? `One more step: choose the spreadsheet ${id} in Google Drive. SheetAPI sees only the spreadsheets you choose there, so Google has not confirmed yet that ${who} can open it. ${HOW}`
      : `Google did not confirm that ${who} can open the spreadsheet ${id}. SheetAPI only sees the spreadsheets you choose in Google's file picker, so a link or id alone is not enough. ${HOW}`,
    { reason: "not_picked" },
  );
}

/**
 * A pasted id that no spreadsheet has: picking it in Google Drive cannot help, so the person is
 * told what they typed instead of being sent to a Picker that shows nothing.
 */
function notInDrive(id: string, typed: string, emails: string[]): ApiError {
  const shown = typed.length > 200 ? `${typed.slice(0, 200)}…` : typed;
  return new ApiError(
    "not_found",
    `No spreadsheet with the id ${id} was found in the Google Drive of ${emails.join(" or ")}. You entered “${shown}”: compare it with the address of the sheet in Google Sheets (the part between /d/ and /edit), or choose the sheet in Google Drive.`,
    { reason: "not_in_drive", typed: shown },
  );
}

/**
 * Whether a spreadsheet has this id at all, asked with the service's API key: Sheets answers 404
 * ("Requested entity was not found.") for none and 403 for one the key may not open. Undefined
 * when Google says neither (a fault, a quota): the person is then offered the Picker as usual.
 */
async function spreadsheetExists(id: string, userId: string): Promise<boolean | undefined> {
  try {
    // On the API key's Sheets quota, within the account's share, like every other Google call.
    await reserveGoogleCall("api-key", "read", userId);
  } catch {
    return undefined;
  }
  const { sheets } = createGoogleClients(config().google, { kind: "apiKey" });
  try {
    await sheets.spreadsheets.get({ spreadsheetId: id, fields: "spreadsheetId" });
    metrics.googleCall({ method: "spreadsheets.get", kind: "read", outcome: googleOutcomeOf() });
    return true;
  } catch (err) {
    metrics.googleCall({ method: "spreadsheets.get", kind: "read", outcome: googleOutcomeOf(err) });
    const failure = readGoogleError(err);
    if (failure.problem) return undefined;
    return failure.status === 404 ? false : failure.status === 403 ? true : undefined;
  }
}

/** True when the person must pick the sheet in the Picker (or connect Google first) to prove access. */
export function needsPicker(err: unknown): boolean {
  return (
    err instanceof ApiError &&
    (err.extra.reason === "not_picked" ||
      err.extra.reason === "no_google_grant" ||
      err.extra.reason === "google_grant_revoked")
  );
}

/** The account's usable grants, the most recent first; an empty list when none. */
export async function usableGrants(userId: string): Promise<GoogleGrant[]> {
  return (await listGrants({ userId })).filter(usable);
}

/**
 * Drive's files.get of `id` with the grant: on the Drive quota of the grant's identity (reserved
 * in the quota guard, so all instances together stay under it) and counted in /metrics.
 */
async function askDrive(grant: GoogleGrant, id: string) {
  await reserveGoogleCall(`oauth:${grant.userId}`, "drive", grant.userId);
  const { drive } = createGoogleClients(config().google, { kind: "oauth", refreshToken: refreshTokenOf(grant) });
  try {
    const { data } = await drive.files.get({
      fileId: id,
      fields: "id,ownedByMe,capabilities(canEdit)",
      supportsAllDrives: true,
    });
    metrics.googleCall({ method: "drive.files.get", kind: "drive", outcome: googleOutcomeOf() });
    return data;
  } catch (err) {
    metrics.googleCall({ method: "drive.files.get", kind: "drive", outcome: googleOutcomeOf(err) });
    throw err;
  }
}

/**
 * Asks Google, with each of the account's grants, whether its Google account can open or edit `id`.
 * `typed`: the reference as the person entered it, when they did (a registration, not a re-proof):
 * an id none of their grants confirms is then checked once for existence, so a typo is named as one.
 */
export async function proveAccess(userId: string, id: string, typed?: string): Promise<Proof> {
  const all = await listGrants({ userId });
  const grants = all.filter(usable);
  if (!grants.length) throw noGrant({ revoked: all.some((g) => g.needsReauth) });
  for (const grant of grants) {
    const proof = await proveWithGrant(grant, id);
    if (proof) return proof;
  }
  // Google refused every grant as revoked just now (each flagged): that, not the sheet, is the cause.
  const left = await usableGrants(userId);
  if (!left.length) throw noGrant({ revoked: true });
  const emails = left.map((g) => g.email);
  if (typed !== undefined && (await spreadsheetExists(id, userId)) === false) throw notInDrive(id, typed, emails);
  throw notProven(id, emails, typed !== undefined);
}

/**
 * Asks Google with this one grant whether its Google account can open or edit `id`: undefined when
 * Google refuses it (no access, or the grant revoked: flagged, and the account's sheets re-checked).
 * Any other failure (Google unavailable, quota) is thrown: it proves nothing either way.
 */
export async function proveWithGrant(grant: GoogleGrant, id: string): Promise<Proof | undefined> {
  try {
    const data = await askDrive(grant, id);
    return { level: data.capabilities?.canEdit === true ? "edit" : "view", owner: data.ownedByMe === true, grant };
  } catch (err) {
    if (err instanceof ApiError) throw err; // the quota guard's 503
    const failure = readGoogleError(err);
    if (failure.invalidGrant) await grantRevoked(grant);
    else if (!isNoAccess(err, "oauth")) throw translateGoogleError(err);
    return undefined;
  }
}

/** The grant is no use any more: the next registration asks again, and the account's sheets are re-checked at once. */
async function grantRevoked(grant: GoogleGrant): Promise<void> {
  await flagGrantNeedsReauth({ refreshTokenCiphertext: grant.refreshTokenCiphertext });
  await recheckAccessSoon({ userId: grant.userId });
}

/** A short-lived access token of the account's grant, for the Google Picker in its own browser. */
export async function pickerAccessToken(userId: string): Promise<{ token: string; email: string } | undefined> {
  for (const grant of await usableGrants(userId)) {
    const client = oauthClient(config().google);
    client.setCredentials({ refresh_token: refreshTokenOf(grant) });
    try {
      const { token } = await client.getAccessToken();
      if (token) return { token, email: grant.email };
    } catch (err) {
      if (!readGoogleError(err).invalidGrant) throw translateGoogleError(err);
      await grantRevoked(grant);
    }
  }
  return undefined;
}
