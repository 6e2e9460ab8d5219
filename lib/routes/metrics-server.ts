// GET /metrics for a process that serves no other HTTP (`npm run worker`): the same exposition
// and token rule as the web instances' route (lib/routes/metrics-endpoint.ts), on a port
// of its own, so webhook attempts and failures made by a separate worker are scraped too.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { errorBody } from "@/lib/http/envelope";
import { ApiError } from "@/lib/errors";
import { METRICS_HEADERS, metricsText } from "@/lib/routes/metrics-endpoint";
import { checkMetricsToken } from "@/lib/routes/with-operator-token";

function requestOf(req: IncomingMessage, url: URL): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) if (typeof value === "string") headers.set(name, value);
  return new Request(url, { method: req.method, headers });
}

async function answer(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? "/", "http://worker");
  let status = 200;
  let headers: Record<string, string> = METRICS_HEADERS;
  let body: string;
  try {
    if (url.pathname !== "/metrics" || (req.method !== "GET" && req.method !== "HEAD")) {
      throw new ApiError("not_found", `No route ${req.method} ${url.pathname}: this process serves GET /metrics only.`);
    }
    checkMetricsToken(requestOf(req, url));
    body = await metricsText();
  } catch (err) {
    const apiError = err instanceof ApiError ? err : new ApiError("server_error", "The metrics could not be read.");
    status = apiError.status;
    headers = { "Content-Type": "application/json", "Cache-Control": "no-store", ...apiError.headers };
    body = JSON.stringify(errorBody(apiError));
  }
  res.writeHead(status, headers).end(req.method === "HEAD" ? undefined : body);
}

/** Listens on `port` (0: any free one); resolves once it does. */
export function serveMetrics(port: number, host?: string): Promise<Server> {
  const server = createServer((req, res) => void answer(req, res));
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => resolve(server));
  });
}
