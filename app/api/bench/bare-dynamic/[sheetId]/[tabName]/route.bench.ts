// GET /api/bench/bare-dynamic/{sheetId}/{tabName}?body=<name> - the bare route (app/api/bench/bare)
// behind the rows API's own path shape: what Next.js itself spends matching and handing over the
// dynamic segments of a list's path, before any of the product's code runs. Benchmark builds only.
export const dynamic = "force-dynamic";
export { GET } from "@/app/api/bench/bare/route.bench";
