import { etagOf, notModified, wantsFresh } from "@/lib/http/conditional";
import { ok } from "@/lib/http/envelope";
import { readHeaders } from "@/lib/http/read-headers";
import { keyRouteMethods, withApiKey } from "@/lib/routes/with-api-key";
import { aggregateRows, findTab } from "@/lib/sheets/read/rows-api";

export const dynamic = "force-dynamic";
type Params = { sheetId: string; tabName: string };

// GET /api/v1/{sheetId}/{tabName}/_aggregate - count, and sum/avg/min/max of number columns,
// over the rows the filter keeps, grouped by group_by columns; from the cached copy
export const GET = withApiKey<Params>(
  async ({ req, params, sheet, dataVersion, key }) => {
    const scope = key.browser;
    const r = await aggregateRows(
      sheet,
      await findTab(sheet, params.tabName, scope),
      dataVersion,
      new URL(req.url).searchParams,
      "aggregate",
      { fresh: wantsFresh(req, key), scope },
    );
    const body = {
      data: r.groups,
      meta: { groups: r.total, rows: r.rows, limit: r.query.limit, offset: r.query.offset, returned: r.groups.length },
    };
    const headers = readHeaders({ ...r, etag: etagOf(body) });
    return notModified(req, headers.ETag!, headers) ?? ok(body, { headers });
  },
  { permission: "read", browser: true },
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = keyRouteMethods(["GET"]);
