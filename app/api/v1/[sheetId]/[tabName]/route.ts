import { readJsonBody } from "@/lib/http/body";
import { etagOf, notModified, wantsFresh } from "@/lib/http/conditional";
import { ok } from "@/lib/http/envelope";
import { idempotent } from "@/lib/http/idempotency";
import { keyRouteMethods, withApiKey } from "@/lib/http/with-api-key";
import { createRows } from "@/lib/sheets/row-writes";
import { findTab, listRows } from "@/lib/sheets/rows-api";

export const dynamic = "force-dynamic";
type Params = { sheetId: string; tabName: string };

// GET /api/v1/{sheetId}/{tabName} - list rows: filter, sort, page, select; ETag of the rows
// returned (If-None-Match: 304); Cache-Control: no-cache reads the sheet as it is now
export const GET = withApiKey<Params>(
  async ({ req, params, sheet, dataVersion }) => {
    const result = await listRows(sheet, await findTab(sheet, params.tabName), dataVersion, new URL(req.url).searchParams, { fresh: wantsFresh(req) });
    const etag = etagOf({ data: result.rows, meta: result.meta });
    const headers = { "X-Cache": result.cache, ETag: etag, "Cache-Control": "private, no-cache" };
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
