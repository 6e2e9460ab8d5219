// The response headers the document declares once (components.headers) and the key schemes
// operations list in `security`.

export const LIMIT_HEADERS = {
  "X-RateLimit-Limit": {
    description: "Requests allowed in the window with the least remaining.",
    schema: { type: "integer" },
  },
  "X-RateLimit-Remaining": { description: "Requests left in that window.", schema: { type: "integer" } },
  "X-RateLimit-Reset": { description: "When that window frees capacity, Unix seconds.", schema: { type: "integer" } },
  RateLimit: {
    description: "IETF RateLimit field: `limit=, remaining=, reset=` (seconds).",
    schema: { type: "string" },
  },
  "RateLimit-Policy": {
    description: "IETF RateLimit-Policy field: every window of the plan, `limit;w=seconds`.",
    schema: { type: "string" },
  },
  "X-Request-Id": { description: "This request's id; quote it to support.", schema: { type: "string" } },
};
// Beyond the limit headers: what reads, updates and idempotent creates answer with.
export const OTHER_HEADERS = {
  ETag: {
    description:
      "The representation's entity tag: of the body as sent, its rows and meta (lists), of the row's state (one row). Send it back in If-None-Match or If-Match.",
    schema: { type: "string" },
  },
  "X-Cache": {
    description:
      "Where the rows came from: `HIT` (cached, unchanged), `MISS` (read from Google now) or `STALE` (Google unreachable, or slower than 2 s: the last good copy within the sheet's stale bound).",
    schema: { type: "string", enum: ["HIT", "MISS", "STALE"] },
  },
  "Idempotent-Replayed": {
    description:
      "`true` when this is the kept answer of an earlier request with the same Idempotency-Key: nothing was written again.",
    schema: { type: "string", enum: ["true"] },
  },
  "Retry-After": { description: "Seconds to wait before retrying.", schema: { type: "integer" } },
  "Last-Modified": {
    description:
      "When the rows (or the schema) answered were read from Google: the answer reflects the sheet as it was then.",
    schema: { type: "string" },
  },
  Age: { description: "Seconds since that read (0 when read for this request).", schema: { type: "integer" } },
  "X-Total-Count": {
    description: "Rows matching the query (CSV answers, which have no `meta`).",
    schema: { type: "integer" },
  },
  "WWW-Authenticate": {
    description: "The scheme a key is accepted in: `Bearer` (or the X-API-Key header).",
    schema: { type: "string" },
  },
};
export const SECURITY_SCHEMES = {
  ApiKey: {
    type: "apiKey",
    in: "header",
    name: "X-API-Key",
    description: "A secret key (`shk_…`), for servers: it holds the permissions each operation names.",
  },
  Bearer: { type: "http", scheme: "bearer", description: "The same key as `Authorization: Bearer <key>`." },
  BrowserKey: {
    type: "apiKey",
    in: "header",
    name: "X-API-Key",
    description:
      "A browser (publishable) key (`shp_…`), safe in a web page: only the row reads (operations that list this scheme), only from the origins its owner listed " +
      "(exact `scheme://host[:port]`, or `https://*.example.com` for subdomains): the answer then carries `Access-Control-Allow-Origin` naming the origin and `Vary: Origin`; " +
      "a missing or unlisted `Origin` answers 403 `forbidden`. Tabs its owner did not choose answer 404; columns not chosen are absent, and naming one in a query answers 400. " +
      "Each visitor address has its own requests-per-minute limit on top of the plan (429 with the usual headers).",
  },
};
/** Row reads: secret keys with Read, and browser keys. */
export const READ_SECURITY = [{ ApiKey: [] }, { Bearer: [] }, { BrowserKey: [] }];
export const BROWSER_NOTE =
  " Browser (publishable) keys may call it, from their listed origins, within their tabs and columns.";
