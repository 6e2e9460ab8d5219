// The base of every route handler: a request id on every answer, and anything thrown turned into
// the spec's envelope. withApiKey and withSession build on it.
import { ApiError } from "./errors";
import { handleApiError, newRequestId, REQUEST_ID_HEADER } from "./envelope";

export interface RouteContext<P> {
  req: Request;
  params: P;
  requestId: string;
}

type NextContext<P> = { params: Promise<P> };

export function route<P = Record<string, never>>(handler: (ctx: RouteContext<P>) => Promise<Response> | Response) {
  return async (req: Request, context?: NextContext<P>): Promise<Response> => {
    const requestId = newRequestId();
    let res: Response;
    try {
      const params = ((await context?.params) ?? {}) as P;
      res = await handler({ req, params, requestId });
    } catch (err) {
      res = handleApiError(err, requestId);
    }
    res.headers.set(REQUEST_ID_HEADER, requestId);
    return res;
  };
}

const METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const;
type Method = (typeof METHODS)[number];

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
  throw new ApiError("not_found", `No route ${req.method} ${new URL(req.url).pathname}. See GET /api for the routes.`);
});
