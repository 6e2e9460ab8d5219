// The spec's envelope: `{ success: true, ... }` or `{ success: false, error, message }`.
import { ApiError } from "@/lib/errors";
import { errorFields, log } from "@/lib/log";
import { metrics } from "@/lib/observability/metrics";

export { newRequestId, REQUEST_ID_HEADER } from "./request-id";

type Init = { status?: number; headers?: HeadersInit };

export function json(body: Record<string, unknown>, init: Init = {}): Response {
  return jsonText(JSON.stringify(body), init);
}

/** A JSON answer from its serialized text (made once, e.g. kept with a cached copy). */
export function jsonText(text: string, init: Init = {}): Response {
  // The answer's own Headers are filled in place: a Headers passed to the constructor would be
  // copied into another one, header by header.
  const res = new Response(text, { status: init.status ?? 200 });
  const headers = res.headers;
  for (const [name, value] of init.headers instanceof Headers || Array.isArray(init.headers)
    ? init.headers
    : Object.entries(init.headers ?? {}))
    headers.append(name, value);
  headers.set("Content-Type", "application/json; charset=utf-8");
  if (!headers.has("Cache-Control")) headers.set("Cache-Control", "no-store");
  return res;
}

/** The success envelope's text: what `ok` sends, for answers serialized ahead of sending. */
export const okText = (body: Record<string, unknown>): string => JSON.stringify({ success: true, ...body });

export function ok(body: Record<string, unknown>, init: Init = {}): Response {
  return jsonText(okText(body), init);
}

/** A CSV answer (RFC 4180, UTF-8, with its header line), shown inline under the tab's name. */
export function csvResponse(body: ReadableStream<Uint8Array>, name: string, headers: Record<string, string>): Response {
  const filename = `${name.replace(/[^\w.-]+/g, "_") || "rows"}.csv`;
  return new Response(body, {
    headers: {
      ...headers,
      "Content-Type": "text/csv; charset=utf-8; header=present",
      "Content-Disposition": `inline; filename="${filename}"; filename*=UTF-8''${encodeURIComponent(`${name}.csv`)}`,
    },
  });
}

/** The error envelope of `err`: `{ success: false, error, message }` and its extra fields. */
export const errorBody = (err: ApiError) => ({ success: false, error: err.code, message: err.message, ...err.extra });

export function errorResponse(err: ApiError): Response {
  return json(errorBody(err), { status: err.status, headers: err.headers });
}

/**
 * Turns anything thrown into the envelope. Unknown errors are logged with the request id and
 * answered with a generic 500: their details are not for the caller.
 */
export function handleApiError(err: unknown, requestId: string, signal?: AbortSignal): Response {
  if (err instanceof ApiError) return errorResponse(err);
  if (clientAborted(err, signal)) {
    // Nobody reads this answer; the log must not call it an outage. 499 as nginx logs it.
    log.info({ req_id: requestId, ...errorFields(err) }, "request aborted by the client");
    return json(
      { success: false, error: "client_closed_request", message: "The client closed the request before it completed." },
      { status: CLIENT_CLOSED },
    );
  }
  if (databaseUnavailable(err)) {
    metrics.databaseError({ during: "request" });
    log.warn({ req_id: requestId, ...errorFields(err) }, "database unavailable");
    return errorResponse(
      new ApiError(
        "service_unavailable",
        "The database is unavailable at the moment; retry shortly.",
        {},
        { "Retry-After": "5" },
      ),
    );
  }
  log.error({ req_id: requestId, ...errorFields(err), stack: (err as Error)?.stack }, "unhandled error");
  return errorResponse(
    new ApiError("server_error", `Something went wrong on our side. Quote ${requestId} if you contact support.`),
  );
}

// Connection-level failures (postgres.js codes and SQLSTATE classes 08 and 57P), also when
// wrapped by Drizzle: the database is down or restarting, not a bug of ours.
const UNAVAILABLE = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "CONNECT_TIMEOUT",
  "CONNECTION_CLOSED",
  "CONNECTION_ENDED",
  "CONNECTION_DESTROYED",
  "57P01",
  "57P02",
  "57P03",
]);

export function databaseUnavailable(err: unknown): boolean {
  for (
    let e = err as { code?: unknown; cause?: unknown } | undefined, depth = 0;
    e && depth < 4;
    e = e.cause as typeof e, depth++
  ) {
    const code = typeof e.code === "string" ? e.code : "";
    if (UNAVAILABLE.has(code) || code.startsWith("08")) return true;
  }
  return false;
}

/** The status a request the client gave up on is logged with (nginx's convention). */
export const CLIENT_CLOSED = 499;

/**
 * The client went away: the request's signal fired, or reading its body failed the way Node
 * reports a dropped connection ("aborted", ECONNRESET), which is not a database error.
 */
export function clientAborted(err: unknown, signal?: AbortSignal): boolean {
  if (signal?.aborted) return true;
  const e = err as { name?: unknown; code?: unknown; message?: unknown } | undefined;
  if (!e || typeof e !== "object") return false;
  if (e.name === "AbortError" || e.name === "ResponseAborted") return true;
  return e.code === "ECONNRESET" && e.message === "aborted";
}
