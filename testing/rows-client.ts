// Calls the rows routes in-process with a key, as an API client would over HTTP.
import { callRoute } from "./routes";

export function rowsClient(sheetId: string, key: string) {
  const collection = () => import("@/app/api/v1/[sheetId]/[tabName]/route");
  const item = () => import("@/app/api/v1/[sheetId]/[tabName]/[rowId]/route");
  const enc = encodeURIComponent;
  const call = async (
    mod: Record<string, unknown>,
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
    key,
    list: async (tab: string, query = "", headers?: Record<string, string>) =>
      call(
        await collection(),
        "GET",
        `/api/v1/${sheetId}/${enc(tab)}${query ? `?${query}` : ""}`,
        { tabName: tab },
        undefined,
        headers,
      ),
    create: async (tab: string, body: unknown, headers?: Record<string, string>) =>
      call(await collection(), "POST", `/api/v1/${sheetId}/${enc(tab)}`, { tabName: tab }, body, headers),
    get: async (tab: string, id: string, query = "", headers?: Record<string, string>) =>
      call(
        await item(),
        "GET",
        `/api/v1/${sheetId}/${enc(tab)}/${enc(id)}${query ? `?${query}` : ""}`,
        { tabName: tab, rowId: id },
        undefined,
        headers,
      ),
    update: async (tab: string, id: string, body: unknown, headers?: Record<string, string>) =>
      call(
        await item(),
        "PUT",
        `/api/v1/${sheetId}/${enc(tab)}/${enc(id)}`,
        { tabName: tab, rowId: id },
        body,
        headers,
      ),
    remove: async (tab: string, id: string, headers?: Record<string, string>) =>
      call(
        await item(),
        "DELETE",
        `/api/v1/${sheetId}/${enc(tab)}/${enc(id)}`,
        { tabName: tab, rowId: id },
        undefined,
        headers,
      ),
  };
}
