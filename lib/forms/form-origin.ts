// Where a submission came from and where its browser may be sent. A browser posting a form from
// another site sends Origin (every current browser does on a POST); an older one may send only
// Referer; a page with `Referrer-Policy: no-referrer` sends `Origin: null`. Only a listed origin
// is served: a script can send any header, which is why the per-visitor limit bounds the rest.
import { ApiError, quoted } from "@/lib/errors";
import { originAllowed } from "@/lib/keys/browser";
import type { FormScope } from "@/lib/keys/key-record";

/** The origin the request claims: Origin, else Referer's origin; null when neither says. */
export function claimedOrigin(headers: Headers): string | null {
  const origin = headers.get("origin");
  if (origin && origin !== "null") return origin;
  const referer = headers.get("referer");
  if (!referer) return null;
  try {
    return new URL(referer).origin;
  } catch {
    return null;
  }
}

export function checkFormOrigin(scope: FormScope, headers: Headers): string {
  const origin = claimedOrigin(headers);
  if (!origin) {
    throw new ApiError(
      "forbidden",
      "This form works only from the pages of the sites its owner listed, and this submission says no page it came from (no Origin or Referer). A page with Referrer-Policy: no-referrer hides it: use strict-origin-when-cross-origin, the browsers' default.",
    );
  }
  if (!originAllowed(scope.origins, origin))
    throw new ApiError(
      "forbidden",
      `This form may not be sent from ${quoted(origin)}: its owner did not list that site. The owner can add it to the form key's allowed origins in the dashboard.`,
    );
  return origin;
}

/**
 * Where to send the browser: the `_redirect` field only when it is one of the key's addresses (an
 * unlisted one is refused, never followed), else the key's first address; undefined: the hosted page.
 */
export function redirectTarget(scope: FormScope, requested: string | undefined): string | undefined {
  if (requested === undefined || requested.trim() === "") return scope.redirects[0];
  let href: string;
  try {
    const url = new URL(requested.trim());
    url.hash = "";
    href = url.href;
  } catch {
    href = requested;
  }
  if (!scope.redirects.includes(href))
    throw new ApiError(
      "validation_error",
      `The form asks to go on to ${quoted(requested)}, which is not one of this form's thank-you addresses. The owner can add it in the dashboard.`,
    );
  return href;
}

/** `address` when it is an http(s) page of a listed origin; else undefined (never a link elsewhere). */
export function listedPage(scope: FormScope, address: string | null): string | undefined {
  if (!address) return undefined;
  try {
    const url = new URL(address);
    return /^https?:$/.test(url.protocol) && originAllowed(scope.origins, url.origin) ? url.href : undefined;
  } catch {
    return undefined;
  }
}

/** The page to link back to: the submitting page, when it is on a listed origin; else none. */
export const backLink = (scope: FormScope, headers: Headers) => listedPage(scope, headers.get("referer"));
