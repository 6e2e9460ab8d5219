import { readJsonBody } from "@/lib/http/body";
import { corsPreflight } from "@/lib/http/cors";
import { ok } from "@/lib/http/envelope";
import { otherMethods } from "@/lib/http/route";
import { withApiKey } from "@/lib/http/with-api-key";
import { deleteRow, updateRow } from "@/lib/sheets/row-writes";
import { findTab, getRow } from "@/lib/sheets/rows-api";

export const dynamic = "force-dynamic";
type Params = { sheetId: string; tabName: string; rowId: string };

// GET /api/v1/{sheetId}/{tabName}/{rowId} - one row
export const GET = withApiKey<Params>(
  async ({ req, params, sheet, dataVersion }) => {
    const { row, cache } = await getRow(sheet, await findTab(sheet, params.tabName), dataVersion, params.rowId, new URL(req.url).searchParams);
    return ok({ data: row }, { headers: { "X-Cache": cache } });
  },
  { permission: "read" },
);

// PUT /api/v1/{sheetId}/{tabName}/{rowId} - change the named fields only (PATCH does the same)
export const PUT = withApiKey<Params>(
  async ({ req, params, sheet }) => {
    const body = await readJsonBody(req);
    return ok({ data: await updateRow(sheet, await findTab(sheet, params.tabName), params.rowId, body) });
  },
  { permission: "write" },
);
export const PATCH = PUT;

// DELETE /api/v1/{sheetId}/{tabName}/{rowId} - remove exactly this row
export const DELETE = withApiKey<Params>(
  async ({ params, sheet }) => ok({ message: await deleteRow(sheet, await findTab(sheet, params.tabName), params.rowId) }),
  { permission: "write" },
);

export const OPTIONS = corsPreflight;
export const { POST } = otherMethods(["GET", "PUT", "PATCH", "DELETE", "OPTIONS"]);
