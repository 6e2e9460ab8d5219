// Google's failures, read in one place: status, status word, message and reasons, and what they
// mean for the service (a 403 is not always "no access"; see README.md).
import { redactSecrets } from "@/lib/observability/redaction";

export type GoogleProblem =
  /** Drive's 403 userRateLimitExceeded / rateLimitExceeded, or 429: retry like any rate limit. */
  | "rate_limited"
  /** The Sheets or Drive API is not enabled in the service's Google Cloud project. */
  | "api_disabled"
  /** The credentials lack the OAuth scope the method needs. */
  | "scope_missing"
  /** The service's API key is restricted (API or referrer). */
  | "api_key_restricted"
  /** The service account's token exchange failed (bad key, clock skew, deleted account). */
  | "service_account_auth"
  /** An owner's OAuth grant was revoked or expired (invalid_grant on refresh). */
  | "grant_revoked"
  | undefined;

export interface GoogleFailure {
  /** HTTP status from Google, or 0 when no answer came (timeout, connection refused). */
  status: number;
  reason: string;
  message: string;
  /** `details[].reason` and `errors[].reason`, as Google sent them. */
  reasons: string[];
  problem: GoogleProblem;
  /** An owner's grant is gone: the owner must re-authorize. Never set for the service account. */
  invalidGrant: boolean;
}

const SIGN_IN = Symbol("service account sign-in");

/** Marks an error as the service account's token exchange failing (set by its client). */
export function markServiceAccountSignIn(err: unknown): void {
  if (err && typeof err === "object") (err as { [SIGN_IN]?: boolean })[SIGN_IN] = true;
}

// Drive also answers 403 dailyLimitExceeded and sharingRateLimitExceeded (Drive API, "Resolve
// errors"): limits, never a sign that the caller cannot open the file.
const RATE_LIMIT_REASONS = [
  "userRateLimitExceeded",
  "rateLimitExceeded",
  "RATE_LIMIT_EXCEEDED",
  "dailyLimitExceeded",
  "sharingRateLimitExceeded",
];

function reasonsOf(error: Record<string, unknown>): string[] {
  const list = (v: unknown) => (Array.isArray(v) ? (v as { reason?: unknown }[]) : []);
  return [...list(error.details), ...list(error.errors)]
    .map((d) => d?.reason)
    .filter((r): r is string => typeof r === "string");
}

function problemOf(status: number, reasons: string[]): GoogleProblem {
  const has = (...names: string[]) => names.some((n) => reasons.includes(n));
  if (status === 429 || (status === 403 && has(...RATE_LIMIT_REASONS))) return "rate_limited";
  if (has("SERVICE_DISABLED", "accessNotConfigured")) return "api_disabled";
  if (has("ACCESS_TOKEN_SCOPE_INSUFFICIENT", "insufficientPermissions")) return "scope_missing";
  if (reasons.some((r) => r.startsWith("API_KEY_"))) return "api_key_restricted";
  return undefined;
}

export function readGoogleError(err: unknown): GoogleFailure {
  const e = err as {
    status?: number;
    code?: string | number;
    message?: string;
    response?: { status?: number; data?: { error?: unknown; error_description?: string } };
  };
  const data = e.response?.data;
  const error = data?.error;
  if (error && typeof error === "object") {
    const g = error as { code?: number; status?: string; message?: string };
    const status = g.code ?? e.response?.status ?? 0;
    const reasons = reasonsOf(error as Record<string, unknown>);
    return {
      status,
      reason: g.status ?? reasons[0] ?? "UNKNOWN",
      message: g.message ?? "",
      reasons,
      problem: problemOf(status, reasons),
      invalidGrant: false,
    };
  }
  // The token endpoint answers `{error: "invalid_grant", error_description}`: the service
  // account signing in (marked by its client), or else an owner's grant being refreshed.
  const tokenEndpoint = typeof error === "string";
  const serviceAccount = Boolean((err as { [SIGN_IN]?: boolean } | undefined)?.[SIGN_IN]);
  const grantGone =
    !serviceAccount && (error === "invalid_grant" || (!tokenEndpoint && /invalid_grant/.test(e.message ?? "")));
  const status = e.response?.status ?? (typeof e.status === "number" ? e.status : 0);
  let problem: GoogleProblem =
    serviceAccount && status >= 400 && status < 500 ? "service_account_auth" : grantGone ? "grant_revoked" : undefined;
  problem ??= problemOf(status, []);
  return {
    status,
    reason: typeof error === "string" ? error : String(e.code ?? "NETWORK"),
    // A network failure's message holds the request's URL, and a public read's has `?key=` in it.
    message: redactSecrets(data?.error_description ?? e.message ?? String(err)),
    reasons: [],
    problem,
    invalidGrant: grantGone,
  };
}
