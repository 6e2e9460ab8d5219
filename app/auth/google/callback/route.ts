import { limitAccountAction } from "@/lib/abuse/account-actions";
import { newKeyCookie } from "@/lib/auth/new-key-flash";
import { completeSheetGrant, GRANT_CALLBACK_PATH, GRANT_COOKIE } from "@/lib/auth/sheet-grant";
import { currentUser } from "@/lib/auth/session";
import { ApiError } from "@/lib/http/errors";
import { route } from "@/lib/http/route";
import { translateGoogleError } from "@/lib/sheets/google-access";

export const dynamic = "force-dynamic";

function cookieValue(req: Request, name: string): string | undefined {
  const match = req.headers.get("cookie")?.split(/;\s*/).find((c) => c.startsWith(`${name}=`));
  return match ? decodeURIComponent(match.slice(name.length + 1)) : undefined;
}

// GET /auth/google/callback - Google's answer to the private registration; lands on the sheet page
export const GET = route(async ({ req }) => {
  const url = new URL(req.url);
  const user = await currentUser();
  if (!user) return new Response(null, { status: 302, headers: { Location: "/signin" } });
  const clearGrant = `${GRANT_COOKIE}=; Path=${GRANT_CALLBACK_PATH}; HttpOnly; SameSite=Lax; Max-Age=0`;
  const headers = new Headers({ "Set-Cookie": clearGrant });
  try {
    await limitAccountAction(user.id, "register");
    const reg = await completeSheetGrant({ user, cookie: cookieValue(req, GRANT_COOKIE), params: url.searchParams });
    if (reg.apiKey) headers.append("Set-Cookie", newKeyCookie(reg.sheet.id, reg.apiKey));
    headers.set("Location", `/dashboard/sheets/${encodeURIComponent(reg.sheet.id)}`);
  } catch (err) {
    const apiError = err instanceof ApiError ? err : translateGoogleError(err);
    headers.set("Location", `/dashboard?error=${encodeURIComponent(apiError.message)}`);
  }
  return new Response(null, { status: 302, headers });
});
