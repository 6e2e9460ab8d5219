import { ok } from "@/lib/http/envelope";
import { keyRouteMethods, withApiKey } from "@/lib/http/with-api-key";
import { getSheetModel } from "@/lib/sheets/schema";
import { schemaDocument } from "@/lib/sheets/tab-model";

export const dynamic = "force-dynamic";

// GET /api/{sheetId}/schema - tabs and columns with their types
export const GET = withApiKey(async ({ sheet }) => ok({ data: schemaDocument(await getSheetModel(sheet)) }), { permission: "schema" });
export const { POST, PUT, PATCH, DELETE, OPTIONS } = keyRouteMethods(["GET"]);
