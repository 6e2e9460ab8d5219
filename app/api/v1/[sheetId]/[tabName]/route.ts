import { readJsonBody } from "@/lib/http/body";
import { etagOf, notModified, wantsFresh } from "@/lib/http/conditional";
import { csvResponse, ok } from "@/lib/http/envelope";
import { readHeaders } from "@/lib/http/read-headers";
import { idempotent } from "@/lib/http/idempotency";
import { keyRouteMethods, withApiKey } from "@/lib/http/with-api-key";
import { createRows } from "@/lib/sheets/row-writes";
import { findReadTab, findTab, listCsv, listRows } from "@/lib/sheets/rows-api";

export const dynamic = "force-dynamic";
type Params = { sheetId: string; tabName: string };

// GET /api/v1/{sheetId}/{tabName} - list rows: filter, sort, page, select; ETag of the rows
// returned (If-None-Match: 304), Last-Modified and Age of the copy; Cache-Control: no-cache or
// ?fresh=true reads the sheet as it is now; Accept: text/csv or {tabName}.csv streams CSV
export const GET = withApiKey<Params>(
  async ({ req, params, sheet, dataVersion }) => {
    const { tab, format } = await findReadTab(sheet, params.tabName, req.headers.get("accept"));
    const args = [sheet, tab, dataVersion, new URL(req.url).searchParams, { fresh: wantsFresh(req) }] as const;
    if (format === "csv") {
      const csv = await listCsv(...args);
      const headers = { ...readHeaders(csv), "X-Total-Count": String(csv.total) };
      return notModified(req, csv.etag, headers) ?? csvResponse(csv.body, tab.name, headers);
    }
    const result = await listRows(...args);
    const etag = etagOf({ data: result.rows, meta: result.meta });
    const headers = readHeaders({ ...result, etag });
    return notModified(req, etag, headers) ?? ok({ data: result.rows, meta: result.meta }, { headers });
  },
  { permission: "read" },
);

// POST /api/v1/{sheetId}/{tabName} - create one row or many (an array, up to 1,000); with an
// Idempotency-Key, a retry returns the first answer and writes nothing
export const POST = withApiKey<Params>(
  async ({ req, params, sheet, key }) => {
    const body = await readJsonBody(req);
    return idempotent(req, key.userId, body, async (attempt) => {
      const tab = await findTab(sheet, params.tabName);
      const data = await createRows(sheet, tab, body, { idempotencyKey: attempt?.key, earlierWrite: attempt?.earlier?.writeId });
      // An earlier request with this key was written after all: its answer, nothing written again.
      if (data === "earlier-landed") return ok({ data: attempt!.earlier!.answer }, { status: 201 });
      return ok({ data }, { status: 201 });
    });
  },
  { permission: "write" },
);

export const { PUT, PATCH, DELETE, OPTIONS } = keyRouteMethods(["GET", "POST"]);
