import { GRANT_COOKIE } from "@/lib/auth/google-grant";
import { finishGrant } from "@/lib/auth/grant-flow";
import { currentUser } from "@/lib/auth/session";
import { route } from "@/lib/routes/route";

export const dynamic = "force-dynamic";

function cookieValue(req: Request, name: string): string | undefined {
  const match = req.headers
    .get("cookie")
    ?.split(/;\s*/)
    .find((c) => c.startsWith(`${name}=`));
  return match ? decodeURIComponent(match.slice(name.length + 1)) : undefined;
}

// GET /auth/google/callback - Google's answer to the consent; registers the pending sheet, if any
export const GET = route(async ({ req }) => {
  const user = await currentUser();
  if (!user) return new Response(null, { status: 302, headers: { Location: "/signin" } });
  return finishGrant(user, cookieValue(req, GRANT_COOKIE), new URL(req.url).searchParams);
});
