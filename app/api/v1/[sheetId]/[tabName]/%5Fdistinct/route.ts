import { etagOf, notModified, wantsFresh } from "@/lib/http/conditional";
import { ok } from "@/lib/http/envelope";
import { readHeaders } from "@/lib/http/read-headers";
import { keyRouteMethods, withApiKey } from "@/lib/routes/with-api-key";
import { aggregateRows, findTab } from "@/lib/sheets/read/rows-api";

export const dynamic = "force-dynamic";
type Params = { sheetId: string; tabName: string };

// GET /api/v1/{sheetId}/{tabName}/_distinct?column= - the column's distinct values among the
// rows the filter keeps (for dropdowns), in sort order; from the cached copy
export const GET = withApiKey<Params>(
  async ({ req, params, sheet, dataVersion, key }) => {
    const scope = key.browser;
    const r = await aggregateRows(
      sheet,
      await findTab(sheet, params.tabName, scope),
      dataVersion,
      new URL(req.url).searchParams,
      "distinct",
      { fresh: wantsFresh(req, key), scope },
    );
    const column = r.query.groupBy[0]!;
    const body = {
      data: r.groups.map((g) => g.group[column]),
      meta: { total: r.total, limit: r.query.limit, offset: r.query.offset, returned: r.groups.length },
    };
    const headers = readHeaders({ ...r, etag: etagOf(body) });
    return notModified(req, headers.ETag!, headers) ?? ok(body, { headers });
  },
  { permission: "read", browser: true },
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = keyRouteMethods(["GET"]);
