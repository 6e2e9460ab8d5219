// One error type and one code -> status table for every answer the service gives.

export const ERROR_STATUS = {
  validation_error: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  precondition_failed: 412,
  payload_too_large: 413,
  unsupported_media_type: 415,
  rate_limit_exceeded: 429,
  server_error: 500,
  bad_gateway: 502,
  service_unavailable: 503,
  gateway_timeout: 504,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export class ApiError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    /** Extra fields for the envelope, such as `retry_after` and `limit` on a 429. */
    readonly extra: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }

  get status(): number {
    return ERROR_STATUS[this.code];
  }
}

/** The most of a caller's text an error message repeats: a 900 KB field name is not echoed back. */
export const MAX_ECHO = 100;

/** A caller's text cut to MAX_ECHO characters, with an ellipsis when cut. */
export function clip(text: string): string {
  const chars = [...text];
  return chars.length > MAX_ECHO ? `${chars.slice(0, MAX_ECHO).join("")}…` : text;
}

/** A caller's text for an error message: clipped, in quotes (JSON-escaped, so a quote cannot end it). */
export const quoted = (text: string): string => JSON.stringify(clip(text));

/**
 * A 504 for a write Google did not confirm and that may still land (DECISIONS 7a). `writeId`
 * names the write, so a retry with the same Idempotency-Key settles it before writing again;
 * `answer` is the body the write would have been answered with, had it been confirmed.
 */
export class OutcomeUnknown extends ApiError {
  constructor(
    message: string,
    readonly writeId: number,
    readonly answer?: unknown,
  ) {
    super("gateway_timeout", message);
  }
}
