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
