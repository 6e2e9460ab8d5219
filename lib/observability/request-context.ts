// The request a piece of work is done for, so every log line names its request id, route and
// sheet without callers passing them; also its sheet stats tally (README.md).
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
  return c.sheet === undefined
    ? { req_id: c.req_id, route: c.route }
    : { req_id: c.req_id, route: c.route, sheet: c.sheet };
}
