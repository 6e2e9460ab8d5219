import { startPrivateRegistration } from "@/lib/auth/grant-flow";
import { currentUser } from "@/lib/auth/session";
import { ApiError } from "@/lib/http/errors";
import { eachWithPeekedLimits, withPeekedLimits } from "@/lib/http/peek-limits";
import { otherMethods, route } from "@/lib/http/route";
import { parseSheetReference } from "@/lib/sheets/sheet-url";

export const dynamic = "force-dynamic";

// GET /auth/{provider}?sheet_url=... - register a private sheet through its owner's Google grant
export const GET = withPeekedLimits(route<{ provider: string }>(async ({ req, params }) => {
  if (params.provider !== "google") {
    throw new ApiError("not_found", `Unknown identity provider "${params.provider}": private sheets are registered through /auth/google.`);
  }
  const url = new URL(req.url);
  const sheetId = parseSheetReference(url.searchParams.get("sheet_url"));
  const user = await currentUser();
  if (!user) {
    const back = `${url.pathname}${url.search}`;
    return new Response(null, { status: 302, headers: { Location: `/signin?callbackUrl=${encodeURIComponent(back)}` } });
  }
  return startPrivateRegistration(user, sheetId);
}));
export const { POST, PUT, PATCH, DELETE } = eachWithPeekedLimits(otherMethods(["GET"]));
