// How the service reaches one registered sheet with Google, and what Google's failures mean for
// the API: the one place where Google errors become the service's errors.
import { flagGrantNeedsReauth } from "@/db/queries/grants";
import { flagSheetNeedsReauth } from "@/db/queries/sheets";
import { decryptSecret } from "@/lib/token-crypto";
import { config } from "@/lib/env";
import { createGoogleClients, serviceAccountOf, type GoogleClients, type GoogleCredential } from "@/lib/google/clients";
import { readGoogleError } from "@/lib/google/errors";
import { ApiError } from "@/lib/errors";
import { googleIdentity, reserveGoogleCall, type CallKind } from "@/lib/google/quota";
import { TRANSIENT, withRetries, type RetryPolicy } from "@/lib/google/retry";
import { metrics } from "@/lib/observability/metrics";
import { googleOutcomeOf, noteGoogleOutcome, noteServiceAccountSignIn } from "@/lib/google/outcomes";
import { countGoogleCall } from "@/lib/usage/sheet-stats";
import { publishSheetQuietly, type SheetRecord } from "@/lib/sheets/sheet-record";
import { recheckAccessSoon } from "@/lib/sheets/access-due";
import { log } from "@/lib/log";

// `serviceAccount` is optional in the type only: callers pass the sheet's record, which has it.
type SheetAccessRecord = Pick<SheetRecord, "id" | "access" | "refreshTokenCiphertext"> &
  Partial<Pick<SheetRecord, "userId" | "serviceAccount">>;

export function credentialFor(sheet: SheetAccessRecord): GoogleCredential {
  if (sheet.access === "public") return { kind: "apiKey" };
  if (sheet.access === "service_account") {
    const email = sheet.serviceAccount ?? undefined;
    if (!serviceAccountOf(config().google, email)) throw identityGone(email!);
    return { kind: "serviceAccount", email };
  }
  if (!sheet.refreshTokenCiphertext) throw needsReauthorization();
  return { kind: "oauth", refreshToken: decryptSecret(sheet.refreshTokenCiphertext, config().secrets.encryptionKey) };
}

// Built once per credential: the OAuth client keeps its access token until it expires.
const clientCache = new Map<string, { clients: GoogleClients; fingerprint: string }>();
const MAX_CACHED = 1000;

const cacheKeyOf = (sheet: SheetAccessRecord) =>
  sheet.access === "oauth"
    ? `oauth:${sheet.id}`
    : sheet.access === "service_account"
      ? `service_account:${sheet.serviceAccount ?? ""}`
      : sheet.access;

export function clientsFor(sheet: SheetAccessRecord): GoogleClients {
  const fingerprint = `${sheet.access}:${sheet.refreshTokenCiphertext ?? ""}`;
  const key = cacheKeyOf(sheet);
  const hit = clientCache.get(key);
  if (hit && hit.fingerprint === fingerprint) return hit.clients;
  if (clientCache.size >= MAX_CACHED) clientCache.delete(clientCache.keys().next().value!);
  const clients = createGoogleClients(config().google, credentialFor(sheet));
  clientCache.set(key, { clients, fingerprint });
  return clients;
}

/** The sheet keeps the identity it was registered with; removed from the configuration, it cannot be reached. */
function identityGone(email: string): ApiError {
  return new ApiError(
    "service_unavailable",
    `This sheet is shared with the service account ${email}, which the service no longer has configured; the operator must restore it in GOOGLE_SERVICE_ACCOUNTS.`,
  );
}

function needsReauthorization(): ApiError {
  return new ApiError(
    "forbidden",
    "The sheet owner's Google authorization was revoked or has expired. The owner must re-authorize the sheet in the dashboard.",
  );
}

const CONFIGURATION: Record<string, string> = {
  service_account_auth:
    "The service could not sign in to Google with its service account. This is a fault in the service's configuration (its key or clock), not in the sheet or its owner's authorization; the operator has been alerted.",
  api_disabled:
    "Google refused the call: the Google Sheets or Drive API is not enabled in the service's Google Cloud project. The operator must enable it.",
  scope_missing:
    "Google refused the call: the Google credentials in use lack the permission (OAuth scope) this call needs.",
  api_key_restricted:
    "Google refused the call: the service's Google API key is restricted from this API. The operator must allow it.",
};

/**
 * Google answered "no access" (403 or 404) and meant it: not a rate limit or a configuration fault.
 * Asked with an owner's grant (`"oauth"`), a 401 is a refusal too: Google no longer honours the
 * grant's access token, which it ends at once when the grant is revoked.
 */
export function isNoAccess(err: unknown, credential?: GoogleCredential["kind"]): boolean {
  const failure = readGoogleError(err);
  if (failure.problem) return false;
  return (
    failure.status === 403 ||
    failure.status === 404 ||
    (credential === "oauth" && failure.status === 401 && !failure.invalidGrant)
  );
}

/**
 * Google refused a write it did not refuse reads of: the account writing for the sheet may only
 * view it now (shared again as Viewer since it was registered). Says how to allow writes again.
 */
function writeRefused(sheet: Pick<SheetAccessRecord, "access">): ApiError {
  return new ApiError(
    "forbidden",
    sheet.access === "service_account"
      ? "Google refused the write: the service's Google account can no longer edit this spreadsheet (it may have been shared with it as a viewer since it was registered); nothing was written. Reads go on while it can view the sheet. To allow writes again, share the sheet with the service's account as Editor, or register it through the private flow: signed in to the dashboard, open /auth/google?sheet_url=<the sheet's address>."
      : "Google refused the write: the Google account that registered this sheet can no longer edit it; nothing was written. Reads go on while it can view the sheet. To allow writes again, the owner gives that account edit access in Google Sheets, or registers the sheet again from an account that can edit it.",
  );
}

/**
 * Google's 400: the request was refused as invalid, before anything was applied. The client reads
 * Google's reason without its pointer into the service's own batch ("Invalid requests[1].
 * insertDimension: ..."), which means nothing to them; the pointer stays in `googleMessage`.
 */
export class GoogleRefusal extends ApiError {
  constructor(readonly googleMessage: string) {
    super(
      "validation_error",
      `Google Sheets refused the request: ${googleMessage.replace(/^Invalid requests\[\d+\]\.\w+: /, "")}`,
    );
  }
}

/** Turns a Google failure into the service's answer. */
export function translateGoogleError(err: unknown): ApiError {
  const failure = readGoogleError(err);
  if (failure.invalidGrant) return needsReauthorization();
  const problem = failure.problem;
  if (problem === "rate_limited") {
    return new ApiError(
      "service_unavailable",
      "Google Sheets is rate limiting requests for this sheet; retry shortly.",
      {},
      { "Retry-After": "5" },
    );
  }
  if (problem && CONFIGURATION[problem]) {
    log.error(
      { google_status: failure.status, google_reason: failure.reason, google_message: failure.message, problem },
      `google: ${problem}`,
    );
    // The service's own sign-in failing is a 503 like any outage of ours: it says when to come back.
    if (problem === "service_account_auth")
      return new ApiError("service_unavailable", CONFIGURATION[problem]!, {}, { "Retry-After": "30" });
    return new ApiError("bad_gateway", CONFIGURATION[problem]!);
  }
  if (failure.status === 404) return new ApiError("not_found", "Google Sheets has no spreadsheet with this id.");
  if (failure.status === 403 || failure.status === 401) {
    return new ApiError("forbidden", "The service no longer has access to this spreadsheet in Google Sheets.");
  }
  if (failure.status === 400) return new GoogleRefusal(failure.message);
  if (failure.status === 503) {
    return new ApiError(
      "service_unavailable",
      "Google Sheets is unavailable at the moment; retry shortly.",
      {},
      { "Retry-After": "5" },
    );
  }
  // Passing failures: the answer says when to come back, as a 503's does.
  if (failure.status === 0)
    return new ApiError(
      "gateway_timeout",
      "Google Sheets did not answer in time; retry shortly.",
      {},
      { "Retry-After": "5" },
    );
  return new ApiError(
    "bad_gateway",
    `Google Sheets failed (HTTP ${failure.status}); retry shortly.`,
    {},
    { "Retry-After": "5" },
  );
}

/** The Google API method a call makes, as Google names it: the label of the calls metric. */
export type GoogleMethod =
  | "spreadsheets.get"
  | "spreadsheets.batchUpdate"
  | "spreadsheets.values.get"
  | "spreadsheets.values.batchGet"
  | "spreadsheets.developerMetadata.search"
  | "drive.files.get";

/**
 * Runs a Google call for a sheet, retrying transient failures (reads by default; writes pass
 * their own rule or none). Each Sheets attempt first reserves a slot under Google's per-minute
 * quotas for its kind (reads and writes are counted apart; `quota: false` for Drive checks,
 * which have their own) and is counted for the
 * sheet's stats. A revoked grant also flags the sheet for the owner; a service account that
 * cannot sign in is the service's own fault, shown in /health.
 */
export async function withGoogle<T>(
  sheet: SheetAccessRecord,
  method: GoogleMethod,
  call: (clients: GoogleClients) => Promise<T>,
  retry: RetryPolicy["retryable"] | false = TRANSIENT,
  { quota = true, kind = "read" }: { quota?: boolean; kind?: CallKind } = {},
): Promise<T> {
  try {
    const clients = clientsFor(sheet);
    const attempt = async () => {
      // Drive checks (quota: false) are counted in the metric but left out of the Sheets outcomes /health reads.
      const outcome = (err?: unknown) => (quota ? noteGoogleOutcome(err) : googleOutcomeOf(err));
      try {
        if (quota) {
          await reserveGoogleCall(googleIdentity(sheet), kind, sheet.userId);
          countGoogleCall(sheet.id);
        }
        const result = await call(clients);
        metrics.googleCall({ method, kind, outcome: outcome() });
        return result;
      } catch (err) {
        metrics.googleCall({ method, kind, outcome: outcome(err) });
        throw err;
      }
    };
    const result = retry
      ? await withRetries(attempt, { retryable: retry, budgetMs: config().google.retryBudgetMs })
      : await attempt();
    if (sheet.access === "service_account") noteServiceAccountSignIn();
    return result;
  } catch (err) {
    if (err instanceof ApiError) throw err;
    const failure = readGoogleError(err);
    const translated =
      kind === "write" && !failure.problem && !failure.invalidGrant && failure.status === 403
        ? writeRefused(sheet)
        : translateGoogleError(err);
    if (failure.problem === "service_account_auth") noteServiceAccountSignIn(`${failure.reason}: ${failure.message}`);
    if (failure.invalidGrant) {
      await publishSheetQuietly(
        await flagSheetNeedsReauth({ id: sheet.id, refreshTokenCiphertext: sheet.refreshTokenCiphertext }),
      );
      // The grant is the account's, shared by its sheets: the next registration asks Google again.
      if (sheet.refreshTokenCiphertext)
        await flagGrantNeedsReauth({ refreshTokenCiphertext: sheet.refreshTokenCiphertext });
      if (sheet.access === "oauth" && sheet.userId) await recheckAccessSoon({ userId: sheet.userId });
    } else if (sheet.access === "oauth" && isNoAccess(err, "oauth")) {
      if (failure.status === 401) {
        // The grant's token is dead (revoked, as its next refresh will say): the grant is the
        // account's, so all its sheets are re-checked, and this sheet's next call signs in afresh.
        clientCache.delete(cacheKeyOf(sheet));
        await recheckAccessSoon(sheet.userId ? { userId: sheet.userId } : { id: sheet.id });
      } else {
        // Google refused the registrant's own grant: their access is re-checked on the next request.
        await recheckAccessSoon({ id: sheet.id });
      }
    }
    throw translated;
  }
}
