// The errors a sheet's API answers, as the docs page and the OpenAPI document both describe them:
// one list, so the two never disagree. Statuses come from the one code -> status table.
import { ERROR_STATUS, type ErrorCode } from "@/lib/errors";

export interface DocumentedError {
  /** The OpenAPI response component's name. */
  name: string;
  code: ErrorCode;
  status: number;
  when: string;
}

const error = (name: string, code: ErrorCode, when: string): DocumentedError => ({
  name,
  code,
  status: ERROR_STATUS[code],
  when,
});

export const DOCUMENTED_ERRORS: DocumentedError[] = [
  error("ValidationError", "validation_error", "Invalid request data: the message names the field or parameter."),
  error("Unauthorized", "unauthorized", "Missing, invalid or revoked key, or a key of another sheet. Not counted."),
  error(
    "Forbidden",
    "forbidden",
    "The key lacks the permission, or the sheet is read-only; a browser key from an origin it does not list (or with no Origin header), or on anything but a row read.",
  ),
  error("NotFound", "not_found", "No such tab (names are case-sensitive) or row."),
  error(
    "Conflict",
    "conflict",
    "A row with this id exists already; a filtered write matches more rows than its limit; a key finds several rows; or an Idempotency-Key was used for another request.",
  ),
  error(
    "PreconditionFailed",
    "precondition_failed",
    "If-Match: the row (or a row a bulk write changes) changed since it was read; nothing was changed.",
  ),
  error("PayloadTooLarge", "payload_too_large", "The body is over 1 MB."),
  error("UnsupportedMediaType", "unsupported_media_type", "Send bodies with Content-Type: application/json."),
  error(
    "RateLimited",
    "rate_limit_exceeded",
    "A plan limit, or a browser key's per-visitor limit, is reached: wait Retry-After seconds. Not counted.",
  ),
  error("ServerError", "server_error", "Something failed on the service's side. Not counted."),
  error("BadGateway", "bad_gateway", "Google Sheets failed; reads are safe to retry with backoff. Not counted."),
  error(
    "ServiceUnavailable",
    "service_unavailable",
    "Google Sheets, its quota or the rate-limit store is unavailable: see Retry-After. Not counted.",
  ),
  error(
    "GatewayTimeout",
    "gateway_timeout",
    "Google Sheets did not confirm a write in time and its outcome is unknown: the message says how to check (the row's id, the Idempotency-Key). Not counted.",
  ),
];

export const documentedError = (name: string): DocumentedError => DOCUMENTED_ERRORS.find((e) => e.name === name)!;
