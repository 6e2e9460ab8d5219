// The request a piece of work is done for, so that every log line written while answering it
// (a degraded store, an unreachable database, Google refusing) names the request id, the route
// and the sheet without each caller passing them. Set by lib/routes/route.ts; read by lib/log.ts.
// It also carries what a key request counted for its sheet's stats until its usage is written
// (lib/usage/request-tally.ts), so no second store of per-request state is needed.
import { AsyncLocalStorage } from "node:async_hooks";
import type { SheetStatsRow } from "@/db/schema";
import { perProcess } from "@/lib/per-process";

export interface RequestContext {
  req_id: string;
  route: string;
  sheet?: string;
  tally?: RequestTally;
}

/** Sheet stats counted while a key request is answered (lib/usage/request-tally.ts). */
export interface RequestTally {
  /** False once the request's usage was written: later counts (a background refresh) go on their own. */
  open: boolean;
  stats: { sheetId: string; day: string; column: SheetStatColumn; n: number }[];
}

/** A per-day counter of the sheet stats table. */
type SheetStatColumn = Exclude<keyof SheetStatsRow, "sheetId" | "day">;

const storage = perProcess("observability:request-context", () => new AsyncLocalStorage<RequestContext>());

export const inRequest = <T>(context: RequestContext, work: () => T): T => storage.run(context, work);

/** The request being answered, if any. */
export const currentRequest = (): RequestContext | undefined => storage.getStore();

/** The fields of the request being answered, for a log line (none outside a request). */
export function requestLogFields(): Partial<RequestContext> {
  const c = storage.getStore();
  if (!c) return {};
  return c.sheet === undefined ? { req_id: c.req_id, route: c.route } : { req_id: c.req_id, route: c.route, sheet: c.sheet };
}
