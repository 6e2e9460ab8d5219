// The wrapper for routes a signed-in dashboard user calls (POST /register).
import { currentUser, type SessionUser } from "@/lib/auth/session";
import { ApiError } from "@/lib/errors";
import { route, type RouteContext } from "./route";

export function withSession<P = Record<string, never>>(
  handler: (ctx: RouteContext<P> & { user: SessionUser }) => Promise<Response>,
) {
  return route<P>(async (ctx) => {
    const user = await currentUser();
    if (!user)
      throw new ApiError("unauthorized", "Sign in to the dashboard first: this route needs a signed-in session.");
    return handler({ ...ctx, user });
  });
}
