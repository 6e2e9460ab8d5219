// GET /api/bench/bare-dynamic/{sheetId}/{tabName}/{rowId}?body=<name> - the bare route behind the
// path shape of one row (three dynamic segments). Benchmark builds only.
export const dynamic = "force-dynamic";
export { GET } from "@/app/api/bench/bare/route.bench";
