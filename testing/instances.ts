// Two (or more) service instances in one test process: each has its own copy of the service's
// modules (its own tab cache and in-process state), while the database and the limit store,
// held once per process, are shared, as two servers share Postgres and Redis.
import { vi } from "vitest";
import { callRoute } from "./routes";

type RouteModule = Record<string, unknown>;

export interface Instance {
  collection: RouteModule;
  item: RouteModule;
}

/** A fresh copy of the rows routes and everything they import. */
export async function startInstance(): Promise<Instance> {
  vi.resetModules();
  return {
    collection: await import("@/app/api/v1/[sheetId]/[tabName]/route"),
    item: await import("@/app/api/v1/[sheetId]/[tabName]/[rowId]/route"),
  };
}

/** The rows API of one instance, as a client calls it. */
export function instanceClient(instance: Instance, sheetId: string, key: string) {
  const enc = encodeURIComponent;
  const call = (
    mod: RouteModule,
    method: string,
    path: string,
    params: Record<string, string>,
    body?: unknown,
    headers: Record<string, string> = {},
  ) =>
    callRoute(mod[method], {
      method,
      path,
      params: { sheetId, ...params },
      headers: { "X-API-Key": key, ...headers },
      body,
    });
  return {
    list: (tab: string, query = "") =>
      call(instance.collection, "GET", `/api/v1/${sheetId}/${enc(tab)}${query ? `?${query}` : ""}`, { tabName: tab }),
    create: (tab: string, body: unknown, headers?: Record<string, string>) =>
      call(instance.collection, "POST", `/api/v1/${sheetId}/${enc(tab)}`, { tabName: tab }, body, headers),
    get: (tab: string, id: string, headers?: Record<string, string>) =>
      call(
        instance.item,
        "GET",
        `/api/v1/${sheetId}/${enc(tab)}/${enc(id)}`,
        { tabName: tab, rowId: id },
        undefined,
        headers,
      ),
    update: (tab: string, id: string, body: unknown, headers?: Record<string, string>) =>
      call(
        instance.item,
        "PUT",
        `/api/v1/${sheetId}/${enc(tab)}/${enc(id)}`,
        { tabName: tab, rowId: id },
        body,
        headers,
      ),
    patch: (tab: string, id: string, body: unknown, headers?: Record<string, string>) =>
      call(
        instance.item,
        "PATCH",
        `/api/v1/${sheetId}/${enc(tab)}/${enc(id)}`,
        { tabName: tab, rowId: id },
        body,
        headers,
      ),
    remove: (tab: string, id: string, headers?: Record<string, string>) =>
      call(
        instance.item,
        "DELETE",
        `/api/v1/${sheetId}/${enc(tab)}/${enc(id)}`,
        { tabName: tab, rowId: id },
        undefined,
        headers,
      ),
  };
}

export type InstanceClient = ReturnType<typeof instanceClient>;
