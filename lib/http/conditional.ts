// Conditional requests: ETags of what a read returned, If-None-Match answered with 304 (no body),
// and the If-Match check that updates and deletes make against the row as it is now.
import { createHash } from "node:crypto";
import { ApiError, quoted } from "@/lib/errors";

/** A strong ETag of a JSON value. */
export function etagOf(value: unknown): string {
  return etagOfText(JSON.stringify(value));
}

/** A strong ETag of text already serialized (the body as sent): no second serialization. */
export function etagOfText(text: string): string {
  return `"${createHash("sha1").update(text).digest("base64url")}"`;
}

/** True when an If-None-Match / If-Match list names this ETag (or is `*`); weak prefixes are ignored. */
export function matchesAny(header: string | null, etag: string): boolean {
  if (!header) return false;
  const wanted = etag.replace(/^W\//, "");
  return header.split(",").some((raw) => {
    const tag = raw.trim().replace(/^W\//, "");
    return tag === "*" || tag === wanted;
  });
}

/**
 * 304 with the validators and no body, when the client already holds this representation. It
 * names what the 200 varies on, as RFC 9110 asks: the 200 may be compressed, so Accept-Encoding.
 */
export function notModified(req: Request, etag: string, headers: Record<string, string>): Response | undefined {
  if (!matchesAny(req.headers.get("if-none-match"), etag)) return undefined;
  return new Response(null, {
    status: 304,
    headers: { ETag: etag, "Cache-Control": "private, no-cache", Vary: "Accept-Encoding", ...headers },
  });
}

/**
 * Cache-Control: no-cache (or max-age=0) on a read asks for the sheet as it is now; so does
 * `?fresh=true` (or `fresh`, `fresh=1`), for tools that cannot set headers. Not for a browser
 * (publishable) key: it is public, and browsers send no-cache on their own (`fetch` with
 * `cache: "no-store"` or `"reload"`), so every page view would spend a Google read from the
 * quota all sheets share; its reads come from the cache, fresh within the sheet's TTL.
 */
export function wantsFresh(req: Request, key: { browser?: unknown }, search = new URL(req.url).searchParams): boolean {
  const fresh = search.get("fresh");
  if (fresh !== null && !["", "true", "1", "false", "0"].includes(fresh)) {
    throw new ApiError("validation_error", `fresh must be true or false; got ${quoted(fresh)}.`);
  }
  if (key.browser) return false;
  if (fresh === "" || fresh === "true" || fresh === "1") return true;
  return /\b(no-cache|max-age=0)\b/i.test(req.headers.get("cache-control") ?? "");
}
