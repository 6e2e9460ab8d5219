// Every key-authenticated route, for the shared checks of lib/routes/key-routes.test.ts.
import type { Permission } from "@/lib/keys/permissions";

export interface KeyRoute {
  name: string;
  method: string;
  permission: Permission;
  load: () => Promise<Record<string, unknown>>;
  path: (sheetId: string) => string;
  params?: Record<string, string>;
  /** A body that succeeds, and the status it succeeds with. */
  body?: unknown;
  okStatus?: number;
  /** Account-level routes have no sheet in the path: any live key of the account is theirs. */
  accountLevel?: boolean;
}

const rows = () => import("@/app/api/v1/[sheetId]/[tabName]/route");
const row = () => import("@/app/api/v1/[sheetId]/[tabName]/[rowId]/route");

/** Every key-authenticated route, run on the demo sheet. */
export const KEY_ROUTES: KeyRoute[] = [
  {
    name: "GET /api/v1/{sheetId}/{tabName}",
    method: "GET",
    permission: "read",
    load: rows,
    path: (id) => `/api/v1/${id}/Products`,
    params: { tabName: "Products" },
  },
  {
    name: "POST /api/v1/{sheetId}/{tabName}",
    method: "POST",
    permission: "write",
    load: rows,
    path: (id) => `/api/v1/${id}/Products`,
    params: { tabName: "Products" },
    body: { name: "Shelf" },
    okStatus: 201,
  },
  {
    name: "PATCH /api/v1/{sheetId}/{tabName}?filter=",
    method: "PATCH",
    permission: "write",
    load: rows,
    path: (id) => `/api/v1/${id}/Products?filter=id%3D5`,
    params: { tabName: "Products" },
    body: { notes: "bulk" },
  },
  {
    name: "DELETE /api/v1/{sheetId}/{tabName}?filter=",
    method: "DELETE",
    permission: "write",
    load: rows,
    path: (id) => `/api/v1/${id}/Products?filter=id%3D999`,
    params: { tabName: "Products" },
  },
  {
    name: "GET /api/v1/{sheetId}/{tabName}/{rowId}",
    method: "GET",
    permission: "read",
    load: row,
    path: (id) => `/api/v1/${id}/Products/1`,
    params: { tabName: "Products", rowId: "1" },
  },
  {
    name: "PUT /api/v1/{sheetId}/{tabName}/{rowId}",
    method: "PUT",
    permission: "write",
    load: row,
    path: (id) => `/api/v1/${id}/Products/2`,
    params: { tabName: "Products", rowId: "2" },
    body: { notes: "checked" },
  },
  {
    name: "DELETE /api/v1/{sheetId}/{tabName}/{rowId}",
    method: "DELETE",
    permission: "write",
    load: row,
    path: (id) => `/api/v1/${id}/Products/6`,
    params: { tabName: "Products", rowId: "6" },
  },
  {
    name: "GET /api/v1/{sheetId}/{tabName}/_aggregate",
    method: "GET",
    permission: "read",
    load: () => import("@/app/api/v1/[sheetId]/[tabName]/%5Faggregate/route"),
    path: (id) => `/api/v1/${id}/Products/_aggregate?group_by=in_stock`,
    params: { tabName: "Products" },
  },
  {
    name: "GET /api/v1/{sheetId}/{tabName}/_distinct",
    method: "GET",
    permission: "read",
    load: () => import("@/app/api/v1/[sheetId]/[tabName]/%5Fdistinct/route"),
    path: (id) => `/api/v1/${id}/Products/_distinct?column=in_stock`,
    params: { tabName: "Products" },
  },
  {
    name: "GET /api/{sheetId}/schema",
    method: "GET",
    permission: "schema",
    load: () => import("@/app/api/[sheetId]/schema/route"),
    path: (id) => `/api/${id}/schema`,
  },
  {
    name: "POST /api/{sheetId}/refresh-schema",
    method: "POST",
    permission: "schema",
    load: () => import("@/app/api/[sheetId]/refresh-schema/route"),
    path: (id) => `/api/${id}/refresh-schema`,
  },
  {
    name: "GET /api/{sheetId}/events",
    method: "GET",
    permission: "read",
    load: () => import("@/app/api/[sheetId]/events/route"),
    path: (id) => `/api/${id}/events`,
  },
  {
    name: "GET /billing/usage",
    method: "GET",
    permission: "analytics",
    load: () => import("@/app/billing/usage/route"),
    path: () => "/billing/usage",
    accountLevel: true,
  },
];
