// Google's Cancel on its sign-in screen, answered before next-auth turns it into a generic error
// and loses the page the person was going to (README.md).
import type { NextRequest } from "next/server";
import { config } from "@/lib/env";
import { safeReturn } from "./return-to";

/**
 * next-auth's cookie holding where to go after sign-in: `__Secure-` prefixed on https, where only
 * that one is read (a sibling subdomain could plant the plain one).
 */
const callbackUrlCookie = () =>
  config().appUrl.startsWith("https://") ? "__Secure-authjs.callback-url" : "authjs.callback-url";

/** Where the person was going, from next-auth's cookie; undefined without one. */
export function pendingReturn(read: (name: string) => string | undefined): string | undefined {
  const value = read(callbackUrlCookie());
  return value ? safeReturn(value, config().appUrl) : undefined;
}

/** The redirect for a sign-in cancelled on Google's screen; undefined for every other request. */
export function cancelledAtGoogle(req: NextRequest): Response | undefined {
  const url = req.nextUrl;
  if (!url.pathname.endsWith("/callback/google") || url.searchParams.get("error") !== "access_denied") return undefined;
  const target = new URLSearchParams({ error: "Cancelled" });
  const back = pendingReturn((name) => req.cookies.get(name)?.value);
  if (back) target.set("callbackUrl", back);
  return new Response(null, { status: 302, headers: { Location: `/signin?${target}`, "Cache-Control": "no-store" } });
}
