import { readFileSync } from "node:fs";
import { config } from "@/lib/env";
import { unknownRoute } from "@/lib/routes/route";

export const dynamic = "force-dynamic";

/** What the benchmark saved: the rows API's own answers by name, and the headers it set on them. */
interface Saved {
  bodies: Record<string, unknown>;
  headers: Record<string, Record<string, string>>;
}
let saved: Saved | undefined;

/**
 * The saved answer named by `?body=`, sent with one JSON.stringify; `withHeaders`: also with the
 * headers the rows API set on it (the ones Next.js does not add to every answer anyway).
 */
export function bareAnswer(req: Request, { withHeaders = false } = {}): Response | Promise<Response> {
  const file = config().env.BENCH_BARE_JSON_FILE;
  if (!file) return unknownRoute(req);
  saved ??= JSON.parse(readFileSync(file, "utf8")) as Saved;
  const name = new URL(req.url).searchParams.get("body") ?? "list";
  const body = saved.bodies[name];
  if (body === undefined) return unknownRoute(req);
  const headers = { ...(withHeaders ? saved.headers[name] : {}), "Content-Type": "application/json; charset=utf-8" };
  return new Response(JSON.stringify(body), { headers });
}

// GET /api/bench/bare?body=<name> - the load benchmarks' baseline: a route handler that answers a
// JSON value held in memory (the rows API's own answers, saved by the benchmark as one file of
// named bodies) with one JSON.stringify per request: the bare cost of this build's routing plus
// the one serialization any answer needs. Built only with SHEETAPI_BENCH_ROUTES=1
// (next.config.ts), so production builds do not have it; even then it answers only while
// BENCH_BARE_JSON_FILE is set, and 404 otherwise.
export function GET(req: Request): Response | Promise<Response> {
  return bareAnswer(req);
}
