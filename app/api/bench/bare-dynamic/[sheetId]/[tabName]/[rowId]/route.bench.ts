// GET /api/bench/bare-dynamic/{sheetId}/{tabName}/{rowId}?body=<name> - the same for one row's
// path shape (three dynamic segments). Benchmark builds only.
export const dynamic = "force-dynamic";
export { GET } from "../route.bench";
