// Google's failures, read in one place: the HTTP status, Google's status word and message, and
// whether an OAuth grant was revoked.

export interface GoogleFailure {
  /** HTTP status from Google, or 0 when no answer came (timeout, connection refused). */
  status: number;
  reason: string;
  message: string;
  invalidGrant: boolean;
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
  const invalidGrant = error === "invalid_grant" || /invalid_grant/.test(e.message ?? "");
  if (error && typeof error === "object") {
    const g = error as { code?: number; status?: string; message?: string };
    return { status: g.code ?? e.response?.status ?? 0, reason: g.status ?? "UNKNOWN", message: g.message ?? "", invalidGrant };
  }
  const status = e.response?.status ?? (typeof e.status === "number" ? e.status : 0);
  return {
    status,
    reason: typeof error === "string" ? error : String(e.code ?? "NETWORK"),
    message: data?.error_description ?? e.message ?? String(err),
    invalidGrant,
  };
}
