// Routes an operator's machines call (a scheduler, a scraper), not users: each is off unless its
// token is set (404, as for a path no route serves) and answers 401 unless the token comes as
// `Authorization: Bearer`, the way Vercel Cron and Prometheus send theirs.
import { config } from "@/lib/env";
import { ApiError } from "@/lib/errors";
import { bearerMatches } from "@/lib/http/bearer";
import { route, type RouteContext } from "./route";

type Handler = (ctx: RouteContext<Record<string, never>>) => Promise<Response> | Response;

/** `route`: the route as the 404 names it; `needs`: as the 401 does. */
function requireToken(req: Request, token: string | undefined, tokenName: string, route: string, needs: string): void {
  if (!token) throw new ApiError("not_found", `No route ${route}. See GET /api for the routes.`);
  if (!bearerMatches(req, token))
    throw new ApiError("unauthorized", `${needs} needs Authorization: Bearer <${tokenName}>.`);
}

/** 404 unless CRON_SECRET is set; 401 unless the caller sends it as Vercel Cron does. */
export function checkCronSecret(req: Request, path: string): void {
  requireToken(req, config().env.CRON_SECRET, "CRON_SECRET", `${req.method} ${path}`, path);
}

/** 404 when metrics are off (no METRICS_TOKEN), 401 without the token. */
export function checkMetricsToken(req: Request): void {
  requireToken(req, config().env.METRICS_TOKEN, "METRICS_TOKEN", "GET /metrics", "GET /metrics");
}

/** A route for the scheduler (vercel.json): `path` is how its errors name it. */
export const withCron = (path: string, handler: Handler) =>
  route(async (ctx) => {
    checkCronSecret(ctx.req, path);
    return handler(ctx);
  });

/** A route for the metrics scraper. */
export const withMetricsToken = (handler: Handler) =>
  route(async (ctx) => {
    checkMetricsToken(ctx.req);
    return handler(ctx);
  });
