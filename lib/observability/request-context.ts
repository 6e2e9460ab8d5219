// The request a piece of work is done for, so that every log line written while answering it
// (a degraded store, an unreachable database, Google refusing) names the request id, the route
// and the sheet without each caller passing them. Set by lib/http/route.ts; read by lib/log.ts.
import { AsyncLocalStorage } from "node:async_hooks";
import { perProcess } from "@/lib/per-process";

export interface RequestContext {
  req_id: string;
  route: string;
  sheet?: string;
}

const storage = perProcess("observability:request-context", () => new AsyncLocalStorage<RequestContext>());

export const inRequest = <T>(context: RequestContext, work: () => T): T => storage.run(context, work);

/** The fields of the request being answered, for a log line (none outside a request). */
export function requestLogFields(): Partial<RequestContext> {
  const c = storage.getStore();
  if (!c) return {};
  return c.sheet === undefined ? { req_id: c.req_id, route: c.route } : { req_id: c.req_id, route: c.route, sheet: c.sheet };
}
