// GET /api/bench/bare-headers?body=<name> - the bare route's answer with the headers the rows API
// sets on it (ETag, rate limits, CORS...), at a static path as the rows API's reads are served
// (lib/http/read-paths.ts): the floor of those reads on this framework. Benchmark builds only
// (see app/api/bench/bare).
import { bareAnswer } from "@/app/api/bench/bare/route.bench";

export const dynamic = "force-dynamic";
export const GET = (req: Request) => bareAnswer(req, { withHeaders: true });
