// The reads clients make most (a tab's rows, one row) reach their handlers at one static path,
// sparing Next.js' per-request cost of dynamic segments (lib/http/README.md). Kept small: the hook
// loads it at start.
import { hookStamp } from "./hook-stamp";

export const READ_ROUTE = "/api/v1/_read";
export const READ_PATH_HEADER = "x-sheetapi-read-path";
export const readPathStamp = hookStamp(READ_PATH_HEADER);

// Segments made only of characters a URL's path keeps as they are (RFC 3986 pchar); a segment
// that is `.` or `..` (a dot segment a URL removes), or `_…` after the tab (the tab's own
// routes), is not matched.
const SEGMENT = String.raw`(?!(?:\.|%2[eE]){1,2}(?:/|$))[A-Za-z0-9\-._~!$&'()*+,;=:@%]+`;
const READ_PATH = new RegExp(`^/api/v1/${SEGMENT}/${SEGMENT}(?:/(?!_|%5[fF])${SEGMENT})?$`);

export interface ReadParams {
  sheetId: string;
  tabName: string;
  rowId?: string;
}

/** The rewrite of a read's request target: the static route's URL and the stamp; undefined for any other request. */
export function readRewrite(method: string, url: string): { url: string; stamp: string } | undefined {
  if (method !== "GET" && method !== "HEAD") return undefined;
  const q = url.indexOf("?");
  const path = q < 0 ? url : url.slice(0, q);
  if (!READ_PATH.test(path)) return undefined;
  return { url: READ_ROUTE + (q < 0 ? "" : url.slice(q)), stamp: readPathStamp.stamp(path) };
}

/**
 * The path a rewritten read was asked at, its params decoded as Next.js decodes a dynamic
 * segment; undefined when the hook did not stamp it (or, which the hook's own check of the
 * encoding rules out, a segment does not decode).
 */
export function stampedRead(req: Request): { path: string; params: ReadParams } | undefined {
  const path = readPathStamp.unstamp(req.headers.get(READ_PATH_HEADER));
  if (!path) return undefined;
  try {
    const [sheetId, tabName, rowId] = path.slice("/api/v1/".length).split("/").map(decodeURIComponent) as [
      string,
      string,
      string?,
    ];
    return { path, params: rowId === undefined ? { sheetId, tabName } : { sheetId, tabName, rowId } };
  } catch {
    return undefined;
  }
}
