// In front of the pages (route handlers do the same for themselves in lib/http/route.ts): every
// answer carries an X-Request-Id; a dashboard page tells its layout which page was asked for, so
// sign-in returns there; a server-action post from another origin is refused with 403 (Next.js
// would refuse it with a 500).
import { NextResponse, type NextRequest } from "next/server";
import { RETURN_TO_HEADER } from "@/lib/auth/return-to";
import { REQUEST_ID_HEADER, requestIdOf } from "@/lib/http/request-id";

/** A server action posted from a page of another origin (Next.js compares Origin with the host). */
function crossOriginAction(req: NextRequest): boolean {
  if (req.method !== "POST" || !req.headers.has("next-action")) return false;
  const origin = req.headers.get("origin");
  if (!origin) return false;
  const host = req.headers.get("x-forwarded-host") ?? req.headers.get("host");
  try {
    return new URL(origin).host !== host;
  } catch {
    return true;
  }
}

export function proxy(req: NextRequest) {
  const requestId = requestIdOf(req.headers);
  if (crossOriginAction(req)) {
    return NextResponse.json(
      { success: false, error: "forbidden", message: "Dashboard actions are accepted only from this site's own pages." },
      { status: 403, headers: { [REQUEST_ID_HEADER]: requestId, "Cache-Control": "no-store" } },
    );
  }
  const headers = new Headers(req.headers);
  headers.set(REQUEST_ID_HEADER, requestId);
  if (req.nextUrl.pathname.startsWith("/dashboard")) headers.set(RETURN_TO_HEADER, `${req.nextUrl.pathname}${req.nextUrl.search}`);
  else headers.delete(RETURN_TO_HEADER);
  const res = NextResponse.next({ request: { headers } });
  res.headers.set(REQUEST_ID_HEADER, requestId);
  return res;
}

// Pages only: API routes set their own X-Request-Id, and static files need none.
export const config = {
  matcher: ["/", "/signin", "/dashboard/:path*", "/docs", "/docs/:path*"],
};
