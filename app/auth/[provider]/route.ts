import { confirmFirst, notASheetForBrowsers, startPrivateRegistration } from "@/lib/auth/grant-flow";
import { currentUser } from "@/lib/auth/session";
import { ApiError } from "@/lib/errors";
import { eachWithPeekedLimits, withPeekedLimits } from "@/lib/routes/peek-limits";
import { isPageNavigation, otherMethods, route, type RouteContext } from "@/lib/routes/route";
import { foreignNavigation, foreignPost, ownOrigin } from "@/lib/http/same-origin";
import { parseSheetReference } from "@/lib/sheets/registration/sheet-url";

export const dynamic = "force-dynamic";

const toSignIn = (back: string) =>
  new Response(null, { status: 302, headers: { Location: `/signin?callbackUrl=${encodeURIComponent(back)}` } });

function sheetOf({ params, url }: RouteContext<{ provider: string }>): string {
  if (params.provider !== "google") {
    throw new ApiError(
      "not_found",
      `Unknown identity provider "${params.provider}": private sheets are registered through /auth/google.`,
    );
  }
  return parseSheetReference(url.searchParams.get("sheet_url"));
}

// GET /auth/{provider}?sheet_url=... - register a private sheet through its owner's Google grant.
// A GET carries the session cookie from any site's link (SameSite=Lax), so one that another site
// started only shows the owner what was asked, on the dashboard, to confirm with the POST below.
// A browser sent here with something that is not a sheet's address lands on the dashboard, which
// says so; API clients get 400 in the envelope.
export const GET = withPeekedLimits(
  route<{ provider: string }>(async (ctx) => {
    let sheetId: string;
    try {
      sheetId = sheetOf(ctx);
    } catch (err) {
      if (err instanceof ApiError && err.code === "validation_error" && isPageNavigation(ctx.req))
        return notASheetForBrowsers(ctx.url.searchParams.get("sheet_url"));
      throw err;
    }
    const user = await currentUser();
    if (!user) return toSignIn(`${ctx.url.pathname}${ctx.url.search}`);
    if (foreignNavigation(ctx.req.headers, ownOrigin(ctx.req))) return confirmFirst(sheetId);
    return startPrivateRegistration(user, sheetId);
  }),
);

// POST /auth/{provider}?sheet_url=... - the same, confirmed from the dashboard's own page (the
// session cookie never comes with another site's POST, and the Origin check refuses it besides).
export const POST = withPeekedLimits(
  route<{ provider: string }>(async (ctx) => {
    const sheetId = sheetOf(ctx);
    if (foreignPost(ctx.req.headers, ownOrigin(ctx.req))) {
      throw new ApiError("forbidden", "Registrations are confirmed only from this site's own pages.");
    }
    const user = await currentUser();
    if (!user) return toSignIn(`/dashboard?register=${encodeURIComponent(sheetId)}`);
    return startPrivateRegistration(user, sheetId);
  }),
);
export const { PUT, PATCH, DELETE } = eachWithPeekedLimits(otherMethods(["GET", "POST"]));
