// CORS for key-authenticated routes: browser apps and static sites call the API with a key in
// X-API-Key or Authorization: Bearer (never cookies), so any origin may call, and the limit headers are readable.
const ALLOW_HEADERS = ["X-API-Key", "Authorization", "Content-Type", "If-Match", "If-None-Match", "Idempotency-Key", "Cache-Control"];
const EXPOSE_HEADERS = ["X-Request-Id", "X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset", "RateLimit", "RateLimit-Policy", "Retry-After", "ETag", "X-Cache", "Idempotent-Replayed", "Age", "Last-Modified", "X-Total-Count"];

export function applyCors(headers: Headers): void {
  headers.set("Access-Control-Allow-Origin", "*");
  headers.set("Access-Control-Expose-Headers", EXPOSE_HEADERS.join(", "));
}

/** OPTIONS: the preflight answer, 204 with what may be sent. */
export function corsPreflight(): Response {
  const headers = new Headers({
    "Access-Control-Allow-Methods": "GET, POST, PUT, PATCH, DELETE, OPTIONS",
    "Access-Control-Allow-Headers": ALLOW_HEADERS.join(", "),
    "Access-Control-Max-Age": "86400",
  });
  applyCors(headers);
  return new Response(null, { status: 204, headers });
}
