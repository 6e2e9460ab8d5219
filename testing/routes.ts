// Calls a route handler the way Next.js does, without a server.
type Handler = (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;

export async function callRoute(
  handler: unknown,
  {
    method = "GET",
    path,
    params,
    headers = {},
    body,
  }: {
    method?: string;
    path: string;
    params: Record<string, string>;
    headers?: Record<string, string>;
    body?: unknown;
  },
) {
  const init: RequestInit = {
    method,
    headers: { ...(body !== undefined ? { "content-type": "application/json" } : {}), ...headers },
  };
  if (body !== undefined) init.body = typeof body === "string" ? body : JSON.stringify(body);
  const res = await (handler as Handler)(new Request(`http://localhost${path}`, init), {
    params: Promise.resolve(params),
  });
  const text = await res.text();
  // CSV and other non-JSON answers keep only their text.
  const isJson = (res.headers.get("content-type") ?? "application/json").includes("json");
  return {
    status: res.status,
    headers: res.headers,
    text,
    body: text && isJson ? (JSON.parse(text) as Record<string, unknown>) : {},
  };
}
