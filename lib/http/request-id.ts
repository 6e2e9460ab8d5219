// Every answer carries an X-Request-Id: the caller's own when it is a sane one, else ours. Route
// handlers and the proxy in front of the pages both use this (it needs nothing but Web APIs).
export const REQUEST_ID_HEADER = "X-Request-Id";

const CLIENT_REQUEST_ID = /^[\w.:-]{8,128}$/;

export function newRequestId(): string {
  return `req_${crypto.randomUUID().replace(/-/g, "")}`;
}

/** The request's id: the one the client sent when it is sane (a trace id), else a new one. */
export function requestIdOf(headers: Headers): string {
  return requestIdFrom(headers.get(REQUEST_ID_HEADER));
}

/** The same, from the header's raw value (Node's IncomingMessage). */
export function requestIdFrom(given: string | string[] | null | undefined): string {
  return typeof given === "string" && CLIENT_REQUEST_ID.test(given) ? given : newRequestId();
}
