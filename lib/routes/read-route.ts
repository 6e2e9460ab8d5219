// The handlers of the static route reads of rows are rewritten to (lib/http/read-paths.ts): the
// list's and the row's own GET, called with the params and the URL of the path the client asked
// at. Asked for directly, or with any other method, the path is no route: the 404 every unknown
// path gets, with the limit headers (app/[...path]/route.ts).
import { unknownRouteWithLimits as notHere } from "./peek-limits";
import { stampedRead } from "@/lib/http/read-paths";
import type { NextContext } from "./route";

type TabParams = { sheetId: string; tabName: string };
type Handler<P> = (req: Request, context: NextContext<P>) => Promise<Response>;

export function readRoute(list: Handler<TabParams>, row: Handler<TabParams & { rowId: string }>) {
  const GET = (req: Request): Promise<Response> => {
    const read = stampedRead(req);
    if (!read) return notHere(req);
    const url = new URL(req.url);
    url.pathname = read.path;
    const { rowId, ...tab } = read.params;
    return rowId === undefined
      ? list(req, { params: Promise.resolve(tab), url })
      : row(req, { params: Promise.resolve({ ...tab, rowId }), url });
  };
  return { GET, POST: notHere, PUT: notHere, PATCH: notHere, DELETE: notHere, OPTIONS: notHere };
}
