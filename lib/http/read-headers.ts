// The headers of every row read: the validator (ETag), where the rows came from (X-Cache), and
// their freshness. The answer reflects the sheet as it was read from Google at one moment:
// Last-Modified names that moment and Age says how long ago it was (0 for a read made now), so a
// client can tell a cached copy from a fresh one without knowing the sheet's cache TTL.
export interface ReadState {
  cache: string;
  etag: string;
  /** When the rows were read from Google, ms. */
  readAt: number;
}

// The reads of one copy share its moment: its HTTP date is formatted once, not per answer.
let lastRead = { at: Number.NaN, text: "" };
const httpDate = (at: number) =>
  lastRead.at === at ? lastRead.text : (lastRead = { at, text: new Date(at).toUTCString() }).text;

/** Last-Modified (the moment read) and Age (seconds since). */
export function freshnessHeaders(readAt: number, now = Date.now()): Record<string, string> {
  return { "Last-Modified": httpDate(readAt), Age: String(Math.max(0, Math.floor((now - readAt) / 1000))) };
}

export function readHeaders({ cache, etag, readAt }: ReadState, now = Date.now()): Record<string, string> {
  return { "X-Cache": cache, ETag: etag, "Cache-Control": "private, no-cache", ...freshnessHeaders(readAt, now) };
}
