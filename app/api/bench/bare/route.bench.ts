import { readFileSync } from "node:fs";
import { config } from "@/lib/env";
import { unknownRoute } from "@/lib/http/route";

export const dynamic = "force-dynamic";

let bodies: Record<string, unknown> | undefined;

// GET /api/bench/bare?body=<name> - the load benchmarks' baseline: a route handler that answers a
// JSON value held in memory (the rows API's own answers, saved by the benchmark as one file of
// named bodies) with one JSON.stringify per request: the bare cost of this build's routing plus
// the one serialization any answer needs. Built only with SHEETAPI_BENCH_ROUTES=1
// (next.config.mjs), so production builds do not have it; even then it answers only while
// BENCH_BARE_JSON_FILE is set, and 404 otherwise.
export function GET(req: Request): Response | Promise<Response> {
  const file = config().env.BENCH_BARE_JSON_FILE;
  if (!file) return unknownRoute(req);
  bodies ??= JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>;
  const body = bodies[new URL(req.url).searchParams.get("body") ?? "list"];
  if (body === undefined) return unknownRoute(req);
  return new Response(JSON.stringify(body), { headers: { "Content-Type": "application/json; charset=utf-8" } });
}
