// Where sign-in sends the browser afterwards: only a page of this service. The target is parsed
// as a browser would (against the app's origin), so `//evil.example`, `/\evil.example` and
// `https://evil.example` all fall back to the dashboard instead of leaving the site.
export const DEFAULT_RETURN = "/dashboard";

/** The header the proxy sets on dashboard requests: the page asked for, so sign-in can return there. */
export const RETURN_TO_HEADER = "x-sheetapi-return-to";

export function safeReturn(target: string | null | undefined, appUrl: string): string {
  if (!target) return DEFAULT_RETURN;
  let url: URL;
  try {
    url = new URL(target, appUrl);
  } catch {
    return DEFAULT_RETURN;
  }
  if (url.origin !== new URL(appUrl).origin) return DEFAULT_RETURN;
  // "/.//evil.example" parses to the path "//evil.example": one leading slash only.
  const path = url.pathname.replace(/^\/+/, "/");
  // Never the sign-in page itself: a signed-in visitor would be sent round for ever.
  if (/^\/signin(\/|$)/.test(path)) return DEFAULT_RETURN;
  return `${path}${url.search}${url.hash}`;
}

/** A fragment a browser may carry: an element id, as the service's own links use (`#try-it`). */
const FRAGMENT = /^#[A-Za-z][\w-]{0,99}$/;

/**
 * The page to return to with the fragment the browser kept through the sign-in redirect (a
 * fragment never reaches the server, so the sign-in page sends it along). Anything but an id-like
 * fragment is dropped, and a target that has its own keeps it.
 */
export function withFragment(target: string, fragment: string | null | undefined): string {
  if (!fragment || !FRAGMENT.test(fragment) || target.includes("#")) return target;
  return `${target}${fragment}`;
}
