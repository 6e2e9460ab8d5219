import { readJsonBody } from "@/lib/http/body";
import { corsPreflight } from "@/lib/http/cors";
import { ok } from "@/lib/http/envelope";
import { otherMethods } from "@/lib/http/route";
import { withApiKey } from "@/lib/http/with-api-key";
import { createRows } from "@/lib/sheets/row-writes";
import { findTab, listRows } from "@/lib/sheets/rows-api";

export const dynamic = "force-dynamic";
type Params = { sheetId: string; tabName: string };

// GET /api/v1/{sheetId}/{tabName} - list rows: filter, sort, page, select
export const GET = withApiKey<Params>(
  async ({ req, params, sheet, dataVersion }) => {
    const result = await listRows(sheet, await findTab(sheet, params.tabName), dataVersion, new URL(req.url).searchParams);
    return ok({ data: result.rows, meta: result.meta }, { headers: { "X-Cache": result.cache } });
  },
  { permission: "read" },
);

// POST /api/v1/{sheetId}/{tabName} - create one row or many (an array, up to 1,000)
export const POST = withApiKey<Params>(
  async ({ req, params, sheet, dataVersion }) => {
    const body = await readJsonBody(req);
    const data = await createRows(sheet, await findTab(sheet, params.tabName), dataVersion, body);
    return ok({ data }, { status: 201 });
  },
  { permission: "write" },
);

export const OPTIONS = corsPreflight;
export const { PUT, PATCH, DELETE } = otherMethods(["GET", "POST", "OPTIONS"]);
