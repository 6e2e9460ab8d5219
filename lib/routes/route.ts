// The base of every route handler: a request id on every answer (the caller's own X-Request-Id
// when it is a sane one), anything thrown turned into the spec's envelope, and one structured
// log line per request. withApiKey and withSession build on it.
import { logRequest } from "@/lib/log";
import { metrics } from "@/lib/observability/metrics";
import { inRequest, type RequestContext } from "@/lib/observability/request-context";
import { ApiError, clip } from "@/lib/errors";
import { handleApiError } from "@/lib/http/envelope";
import { REQUEST_ID_HEADER, requestIdOf } from "@/lib/http/request-id";
import { METHODS, type Method } from "@/lib/http/methods";

export interface RouteContext<P> {
  req: Request;
  /** The request's URL, parsed once. */
  url: URL;
  params: P;
  requestId: string;
  /** Adds fields to this request's log line (sheet, key prefix); never values or secrets. */
  annotate(fields: Record<string, string | number | undefined>): void;
}

export type NextContext<P> = {
  params: Promise<P>;
  /** The URL the client asked for, when Next.js routed a rewritten one (lib/http/read-paths.ts). */
  url?: URL;
};

/** The path with its parameters named (`/api/v1/{sheetId}/{tabName}`): what a log groups by. */
function routeTemplate(pathname: string, params: Record<string, unknown>): string {
  let out = pathname;
  for (const [name, value] of Object.entries(params)) {
    if (typeof value !== "string" || !value) continue;
    out = out.replace(`/${encodeURIComponent(value)}`, `/{${name}}`).replace(`/${value}`, `/{${name}}`);
  }
  return out;
}

export function route<P = Record<string, never>>(handler: (ctx: RouteContext<P>) => Promise<Response> | Response) {
  return async (req: Request, context?: NextContext<P>): Promise<Response> => {
    const started = performance.now();
    const requestId = requestIdOf(req.headers);
    const url = context?.url ?? new URL(req.url);
    const fields: Record<string, string | number | undefined> = {};
    const logContext: RequestContext = { req_id: requestId, route: url.pathname };
    const annotate = (f: Record<string, string | number | undefined>) => {
      Object.assign(fields, f);
      if (typeof f.sheet === "string") logContext.sheet = f.sheet;
    };
    const res = await inRequest(logContext, async (): Promise<Response> => {
      try {
        const params = ((await context?.params) ?? {}) as P;
        logContext.route = routeTemplate(url.pathname, params as Record<string, unknown>);
        // A route of one sheet names it on every line, its own request line included.
        const sheetId = (params as { sheetId?: unknown }).sheetId;
        if (typeof sheetId === "string") annotate({ sheet: sheetId });
        return await handler({ req, url, params, requestId, annotate });
      } catch (err) {
        return handleApiError(err, requestId, req.signal);
      }
    });
    res.headers.set(REQUEST_ID_HEADER, requestId);
    const template = logContext.route;
    const ms = performance.now() - started;
    logRequest({
      req_id: requestId,
      method: req.method,
      route: template,
      status: res.status,
      duration_ms: Math.round(ms * 10) / 10,
      ...fields,
    });
    metrics.request(template, req.method, res.status, ms / 1000);
    return res;
  };
}

/** Handlers for the methods a route does not serve: 405 in the envelope, with `Allow`. */
export function otherMethods(allowed: Method[]) {
  const allow = allowed.join(", ");
  const handler = route(() => {
    throw new ApiError("method_not_allowed", `This route answers ${allow}.`, {}, { Allow: allow });
  });
  return Object.fromEntries(METHODS.map((m) => [m, handler])) as Record<Method, typeof handler>;
}

/** 404 in the envelope for paths no route serves. */
export const unknownRoute = route(({ req }) => {
  throw new ApiError(
    "not_found",
    `No route ${req.method} ${clip(new URL(req.url).pathname)}. See GET /api for the routes.`,
  );
});

/**
 * A browser loading a page (it asks for HTML; API clients, curl and fetch ask for JSON or
 * anything), outside /api, whose paths answer JSON whoever asks.
 */
export function isPageNavigation(req: Request): boolean {
  if (req.method !== "GET" && req.method !== "HEAD") return false;
  if (/^\/api(\/|$)/.test(new URL(req.url).pathname)) return false;
  return (req.headers.get("accept") ?? "").includes("text/html");
}
