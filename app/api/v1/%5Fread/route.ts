import { readRoute } from "@/lib/routes/read-route";
import { GET as listRows } from "../[sheetId]/[tabName]/route";
import { GET as getRow } from "../[sheetId]/[tabName]/[rowId]/route";

export const dynamic = "force-dynamic";

// GET and HEAD /api/v1/{sheetId}/{tabName}[/{rowId}], rewritten here before routing by
// lib/http/raw-requests.ts (why: lib/http/read-paths.ts). Asked for directly, this path is no route.
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = readRoute(listRows, getRow);
