// GET /api/bench/bare-dynamic/{sheetId}/{tabName}?body=<name> - the bare route's answer behind
// the rows API's own path shape, with the headers the rows API sets (ETag, rate limits, CORS...):
// what Next.js itself spends on a list's dynamic segments and on those headers, before any of the
// product's code runs. Benchmark builds only (see app/api/bench/bare).
import { bareAnswer } from "@/app/api/bench/bare/route.bench";

export const dynamic = "force-dynamic";
export const GET = (req: Request) => bareAnswer(req, { withHeaders: true });
