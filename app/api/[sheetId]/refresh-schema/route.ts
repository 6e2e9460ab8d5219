import { ok } from "@/lib/http/envelope";
import { keyRouteMethods, withApiKey } from "@/lib/routes/with-api-key";
import { refreshSheetModel } from "@/lib/sheets/read/schema";

export const dynamic = "force-dynamic";

// POST /api/{sheetId}/refresh-schema - read the structure from Google again
export const POST = withApiKey(
  async ({ sheet }) => {
    const model = await refreshSheetModel(sheet);
    return ok({ message: "Schema refreshed.", data: { tabs_count: model.tabs.length, updated_at: model.updatedAt } });
  },
  { permission: "schema" },
);
export const { GET, PUT, PATCH, DELETE, OPTIONS } = keyRouteMethods(["POST"]);
