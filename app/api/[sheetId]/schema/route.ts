import { ok } from "@/lib/http/envelope";
import { freshnessHeaders } from "@/lib/http/read-headers";
import { keyRouteMethods, withApiKey } from "@/lib/routes/with-api-key";
import { getSheetModel } from "@/lib/sheets/read/schema";
import { schemaDocument } from "@/lib/sheets/values/tab-model";

export const dynamic = "force-dynamic";

// GET /api/{sheetId}/schema - tabs and columns with their types; Last-Modified and Age say when
// the structure was read from Google
export const GET = withApiKey(
  async ({ sheet }) => {
    const model = await getSheetModel(sheet);
    return ok({ data: schemaDocument(model) }, { headers: freshnessHeaders(model.updatedAt) });
  },
  { permission: "schema" },
);
export const { POST, PUT, PATCH, DELETE, OPTIONS } = keyRouteMethods(["GET"]);
