// How the service reaches one registered sheet with Google, and what Google's failures mean for
// the API: the one place where Google errors become the service's errors.
import { flagSheetNeedsReauth } from "@/db/queries/sheets";
import { decryptSecret } from "@/lib/auth/token-crypto";
import { config } from "@/lib/env";
import { createGoogleClients, type GoogleClients, type GoogleCredential } from "@/lib/google/clients";
import { readGoogleError } from "@/lib/google/errors";
import { ApiError } from "@/lib/http/errors";
import { googleIdentity, reserveGoogleCall, type CallKind } from "./google-quota";
import { TRANSIENT, withRetries, type RetryPolicy } from "./google-retry";
import { noteGoogleOutcome } from "./google-outcomes";
import { countGoogleCall } from "./sheet-stats";
import { publishSheetQuietly, type SheetRecord } from "./sheet-record";

type SheetAccessRecord = Pick<SheetRecord, "id" | "access" | "refreshTokenCiphertext"> & Partial<Pick<SheetRecord, "userId">>;

export function credentialFor(sheet: SheetAccessRecord): GoogleCredential {
  if (sheet.access === "public") return { kind: "apiKey" };
  if (sheet.access === "service_account") return { kind: "serviceAccount" };
  if (!sheet.refreshTokenCiphertext) throw needsReauthorization();
  return { kind: "oauth", refreshToken: decryptSecret(sheet.refreshTokenCiphertext, config().secrets.encryptionKey) };
}

// Built once per credential: the OAuth client keeps its access token until it expires.
const clientCache = new Map<string, { clients: GoogleClients; fingerprint: string }>();
const MAX_CACHED = 1000;

export function clientsFor(sheet: SheetAccessRecord): GoogleClients {
  const fingerprint = `${sheet.access}:${sheet.refreshTokenCiphertext ?? ""}`;
  const key = sheet.access === "oauth" ? `oauth:${sheet.id}` : sheet.access;
  const hit = clientCache.get(key);
  if (hit && hit.fingerprint === fingerprint) return hit.clients;
  if (clientCache.size >= MAX_CACHED) clientCache.delete(clientCache.keys().next().value!);
  const clients = createGoogleClients(config().google, credentialFor(sheet));
  clientCache.set(key, { clients, fingerprint });
  return clients;
}

function needsReauthorization(): ApiError {
  return new ApiError(
    "forbidden",
    "The sheet owner's Google authorization was revoked or has expired. The owner must re-authorize the sheet in the dashboard.",
  );
}

/** Turns a Google failure into the service's answer. */
export function translateGoogleError(err: unknown): ApiError {
  const failure = readGoogleError(err);
  if (failure.invalidGrant) return needsReauthorization();
  if (failure.status === 404) return new ApiError("not_found", "Google Sheets has no spreadsheet with this id.");
  if (failure.status === 403 || failure.status === 401) {
    return new ApiError("forbidden", "The service no longer has access to this spreadsheet in Google Sheets.");
  }
  if (failure.status === 400) return new ApiError("validation_error", `Google Sheets refused the request: ${failure.message}`);
  if (failure.status === 429) {
    return new ApiError("service_unavailable", "Google Sheets is rate limiting requests for this sheet; retry shortly.", {}, { "Retry-After": "5" });
  }
  if (failure.status === 503) {
    return new ApiError("service_unavailable", "Google Sheets is unavailable at the moment; retry shortly.", {}, { "Retry-After": "5" });
  }
  if (failure.status === 0) return new ApiError("gateway_timeout", "Google Sheets did not answer in time; retry shortly.");
  return new ApiError("bad_gateway", `Google Sheets failed (HTTP ${failure.status}); retry shortly.`);
}

/**
 * Runs a Google call for a sheet, retrying transient failures (reads by default; writes pass
 * their own rule or none). Each Sheets attempt first reserves a slot under Google's per-minute
 * quotas for its kind (reads and writes are counted apart; `quota: false` for Drive checks,
 * which have their own) and is counted for the
 * sheet's stats. A revoked grant also flags the sheet for the owner.
 */
export async function withGoogle<T>(
  sheet: SheetAccessRecord,
  call: (clients: GoogleClients) => Promise<T>,
  retry: RetryPolicy["retryable"] | false = TRANSIENT,
  { quota = true, kind = "read" }: { quota?: boolean; kind?: CallKind } = {},
): Promise<T> {
  try {
    const clients = clientsFor(sheet);
    const attempt = async () => {
      if (!quota) return call(clients);
      try {
        await reserveGoogleCall(googleIdentity(sheet), kind);
        countGoogleCall(sheet.id);
        const result = await call(clients);
        noteGoogleOutcome();
        return result;
      } catch (err) {
        noteGoogleOutcome(err);
        throw err;
      }
    };
    return retry ? await withRetries(attempt, { retryable: retry, budgetMs: config().google.retryBudgetMs }) : await attempt();
  } catch (err) {
    if (err instanceof ApiError) throw err;
    const translated = translateGoogleError(err);
    if (readGoogleError(err).invalidGrant) {
      await publishSheetQuietly(await flagSheetNeedsReauth({ id: sheet.id, refreshTokenCiphertext: sheet.refreshTokenCiphertext }));
    }
    throw translated;
  }
}
