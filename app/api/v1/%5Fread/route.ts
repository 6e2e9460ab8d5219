import { stampedRead } from "@/lib/http/read-paths";
import { unknownRoute } from "@/lib/http/route";
import { GET as listRows } from "../[sheetId]/[tabName]/route";
import { GET as getRow } from "../[sheetId]/[tabName]/[rowId]/route";

export const dynamic = "force-dynamic";

// GET and HEAD /api/v1/{sheetId}/{tabName}[/{rowId}], rewritten here before routing by
// lib/http/raw-requests.ts (why: lib/http/read-paths.ts): the same handlers, with the params and
// URL of the path the client asked for. Asked for directly, this path is no route.
export function GET(req: Request): Promise<Response> {
  const read = stampedRead(req);
  if (!read) return unknownRoute(req);
  const url = new URL(req.url);
  url.pathname = read.path;
  const { rowId, ...tab } = read.params;
  return rowId === undefined ? listRows(req, { params: Promise.resolve(tab), url }) : getRow(req, { params: Promise.resolve({ ...tab, rowId }), url });
}

export { unknownRoute as POST, unknownRoute as PUT, unknownRoute as PATCH, unknownRoute as DELETE, unknownRoute as OPTIONS };
