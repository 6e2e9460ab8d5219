// In front of the pages: request ids, the return page for sign-in, the per-request CSP nonce, and
// a 403 for another site's POST before Next.js answers it with a 500 (docs/architecture.md).
import { NextResponse, type NextRequest } from "next/server";
import { RETURN_TO_HEADER } from "@/lib/auth/return-to";
import { REQUEST_ID_HEADER, requestIdOf } from "@/lib/http/request-id";
import { newNonce, pagePolicy } from "@/lib/http/page-policy";
import { foreignPost, originMatchesHost, ownOrigin } from "@/lib/http/same-origin";

export function proxy(req: NextRequest) {
  const requestId = requestIdOf(req.headers);
  // The full origin against APP_URL's (lib/http/same-origin.ts), not just the host as Next.js
  // does; and Next.js's own host test besides, so nothing it would refuse reaches it.
  if (req.method === "POST" && (foreignPost(req.headers, ownOrigin(req)) || !originMatchesHost(req.headers))) {
    return NextResponse.json(
      {
        success: false,
        error: "forbidden",
        message: "Dashboard actions are accepted only from this site's own pages.",
      },
      { status: 403, headers: { [REQUEST_ID_HEADER]: requestId, "Cache-Control": "no-store" } },
    );
  }
  const headers = new Headers(req.headers);
  headers.set(REQUEST_ID_HEADER, requestId);
  if (req.nextUrl.pathname.startsWith("/dashboard"))
    headers.set(RETURN_TO_HEADER, `${req.nextUrl.pathname}${req.nextUrl.search}`);
  else headers.delete(RETURN_TO_HEADER);
  // The prerendered 404 page has no nonce on its scripts: it keeps next.config.ts's policy.
  const policy = req.nextUrl.pathname === "/_not-found" ? undefined : pagePolicy({ nonce: newNonce() });
  if (policy) headers.set("Content-Security-Policy", policy);
  else headers.delete("Content-Security-Policy");
  const res = NextResponse.next({ request: { headers } });
  res.headers.set(REQUEST_ID_HEADER, requestId);
  if (policy) res.headers.set("Content-Security-Policy", policy);
  return res;
}

// Every page (any may host server actions: sign-in, the dashboard, sign-out in its layout; the
// prerendered 404 page is one too, reachable at /_not-found), and no /api or /auth route: those
// set their own X-Request-Id and check their own callers.
export const config = {
  matcher: ["/", "/signin", "/dashboard/:path*", "/docs", "/docs/:path*", "/_not-found"],
};
