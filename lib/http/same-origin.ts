// Which site a browser request comes from (Origin, Sec-Fetch-Site, Referer), for the checks that
// stop another site from acting with an owner's session; a request with none of them comes from
// no web page, so it is no forgery (lib/http/README.md).
import { config } from "@/lib/env";

/** Loopback names are one host: Next.js names every one of them localhost (lib/env.ts). */
const LOOPBACK = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\])$/;

/** Sec-Fetch-Site values of a request our own page or the person (address bar, bookmark) made. */
const OWN_FETCH_SITES = new Set(["same-origin", "none"]);

/** The first X-Forwarded-Host, the one the outermost proxy was asked for (as Next.js reads it). */
const forwardedHost = (headers: Headers) => headers.get("x-forwarded-host")?.split(",")[0]?.trim() || undefined;

/**
 * This app's origin: APP_URL's when it is set (production requires it), otherwise the origin the
 * request was sent to, as Next.js itself judges server actions (X-Forwarded-Host, then Host).
 */
export function ownOriginOf(headers: Headers, requestUrl: string, appUrl: string | undefined): string {
  if (appUrl) return new URL(appUrl).origin;
  const url = new URL(requestUrl);
  const host = forwardedHost(headers) ?? headers.get("host") ?? url.host;
  const proto = headers.get("x-forwarded-proto")?.split(",")[0]?.trim() || url.protocol.replace(/:$/, "");
  return `${proto}://${host}`;
}

/** The app's origin for this request, from the configuration. */
export function ownOrigin(req: { headers: Headers; url: string }): string {
  const cfg = config();
  return ownOriginOf(req.headers, req.url, cfg.env.APP_URL ? cfg.appUrl : undefined);
}

/** Same scheme, host and port as `own`. `null`, garbage and other schemes are never ours. */
export function sameOrigin(candidate: string, own: string): boolean {
  let a: URL;
  let b: URL;
  try {
    a = new URL(candidate);
    b = new URL(own);
  } catch {
    return false;
  }
  if (a.protocol !== "http:" && a.protocol !== "https:") return false;
  if (a.protocol !== b.protocol || a.port !== b.port) return false;
  return a.hostname === b.hostname || (LOOPBACK.test(a.hostname) && LOOPBACK.test(b.hostname));
}

/** A POST another site's page sent: another Origin, or no Origin and a Sec-Fetch-Site not ours. */
export function foreignPost(headers: Headers, own: string): boolean {
  const origin = headers.get("origin");
  if (origin !== null) return !sameOrigin(origin, own);
  const site = headers.get("sec-fetch-site");
  return site !== null && !OWN_FETCH_SITES.has(site);
}

/**
 * Next.js's own test of a server action: an Origin's host is the host the request was sent to
 * (the first X-Forwarded-Host, or Host). Whatever fails it, Next.js answers with a 500.
 */
export function originMatchesHost(headers: Headers): boolean {
  const origin = headers.get("origin");
  if (origin === null) return true;
  let host: string;
  try {
    host = new URL(origin).host;
  } catch {
    return false;
  }
  return host === forwardedHost(headers) || host === headers.get("host");
}

/**
 * A navigation another site started (a link, a script, a redirect, or a chain of redirects that
 * passed through another site): any of the three headers saying so is enough.
 */
export function foreignNavigation(headers: Headers, own: string): boolean {
  const site = headers.get("sec-fetch-site");
  if (site !== null && !OWN_FETCH_SITES.has(site)) return true;
  for (const name of ["origin", "referer"]) {
    const value = headers.get(name);
    if (value !== null && !sameOrigin(value, own)) return true;
  }
  return false;
}
