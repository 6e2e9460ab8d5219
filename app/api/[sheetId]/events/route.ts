import { ok } from "@/lib/http/envelope";
import { keyRouteMethods, withApiKey } from "@/lib/routes/with-api-key";
import { listEvents } from "@/lib/webhooks/events-api";

export const dynamic = "force-dynamic";

// GET /api/{sheetId}/events - the sheet's change events after a cursor (Read permission)
export const GET = withApiKey(async ({ req, sheet }) => ok(await listEvents(sheet.id, new URL(req.url).searchParams)), {
  permission: "read",
});
export const { POST, PUT, PATCH, DELETE, OPTIONS } = keyRouteMethods(["GET"]);
