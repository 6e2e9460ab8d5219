// CORS for key-authenticated routes: browser apps and static sites call the API with a key in
// X-API-Key or Authorization: Bearer (never cookies). Secret keys (and answers given before a key
// is known) may be called from any origin; a browser (publishable) key's answers name the
// request's origin when its owner listed it, and name none otherwise, so the page cannot read them.
const ALLOW_HEADERS = [
  "X-API-Key",
  "Authorization",
  "Content-Type",
  "If-Match",
  "If-None-Match",
  "Idempotency-Key",
  "Cache-Control",
];
const EXPOSE_HEADERS = [
  "X-Request-Id",
  "X-RateLimit-Limit",
  "X-RateLimit-Remaining",
  "X-RateLimit-Reset",
  "RateLimit",
  "RateLimit-Policy",
  "Retry-After",
  "ETag",
  "X-Cache",
  "Idempotent-Replayed",
  "Age",
  "Last-Modified",
  "X-Total-Count",
  "WWW-Authenticate",
].join(", ");

/** `*` (any origin), one origin (a browser key's listed origin), or null (a browser key from an unlisted origin). */
export type AllowedOrigin = string | null;

export function applyCors(headers: Headers, origin: AllowedOrigin = "*"): void {
  if (origin === "*") {
    headers.set("Access-Control-Allow-Origin", "*");
  } else {
    // The answer depends on the Origin header: shared caches must keep one copy per origin.
    headers.append("Vary", "Origin");
    if (origin) headers.set("Access-Control-Allow-Origin", origin);
  }
  headers.set("Access-Control-Expose-Headers", EXPOSE_HEADERS);
}

/**
 * OPTIONS: the preflight answer, 204 with what may be sent (the route's `methods`), for any
 * origin: a preflight carries no key, so the real request is where a browser key's origins are
 * enforced.
 */
export function corsPreflight(methods: string): Response {
  const headers = new Headers({
    "Access-Control-Allow-Methods": methods,
    "Access-Control-Allow-Headers": ALLOW_HEADERS.join(", "),
    "Access-Control-Max-Age": "86400",
  });
  applyCors(headers);
  return new Response(null, { status: 204, headers });
}
