import { readFileSync } from "node:fs";
import { config } from "@/lib/env";
import { unknownRoute } from "@/lib/http/route";

export const dynamic = "force-dynamic";

let body: string | undefined;

// GET /api/bench/bare - the load benchmark's baseline: a route handler that only returns a
// fixed JSON body (the rows API's own answer, saved by the benchmark), the bare cost of this
// build's routing. Built only with SHEETAPI_BENCH_ROUTES=1 (next.config.mjs), so production builds
// do not have it; even then it answers only while BENCH_BARE_JSON_FILE is set.
export function GET(req: Request): Response | Promise<Response> {
  const file = config().env.BENCH_BARE_JSON_FILE;
  if (!file) return unknownRoute(req);
  body ??= readFileSync(file, "utf8");
  return new Response(body, { headers: { "Content-Type": "application/json; charset=utf-8" } });
}
