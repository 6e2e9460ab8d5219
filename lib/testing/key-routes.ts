// Every key-authenticated route, for the shared checks of lib/http/key-routes.test.ts.
import type { Permission } from "@/lib/keys/permissions";

export interface KeyRoute {
  name: string;
  method: string;
  permission: Permission;
  load: () => Promise<Record<string, unknown>>;
  path: (sheetId: string) => string;
}

/** Every key-authenticated route. The rows and usage routes join as they are built. */
export const KEY_ROUTES: KeyRoute[] = [
  { name: "GET /api/{sheetId}/schema", method: "GET", permission: "schema", load: () => import("@/app/api/[sheetId]/schema/route"), path: (id) => `/api/${id}/schema` },
  { name: "POST /api/{sheetId}/refresh-schema", method: "POST", permission: "schema", load: () => import("@/app/api/[sheetId]/refresh-schema/route"), path: (id) => `/api/${id}/refresh-schema` },
];
