import { notModified, wantsFresh } from "@/lib/http/conditional";
import { csvResponse, jsonText } from "@/lib/http/envelope";
import { readHeaders } from "@/lib/http/read-headers";
import { keyRouteMethods, withApiKey } from "@/lib/routes/with-api-key";
import { findReadTab, listAnswer, listCsv } from "@/lib/sheets/read/rows-api";
import { deleteRows, patchRows, postRows } from "@/lib/sheets/write/write-routes";

export const dynamic = "force-dynamic";
type Params = { sheetId: string; tabName: string };

// GET /api/v1/{sheetId}/{tabName} - list rows: filter, sort, page, select; ETag of the rows
// returned (If-None-Match: 304), Last-Modified and Age of the copy; Cache-Control: no-cache or
// ?fresh=true reads the sheet as it is now; Accept: text/csv or {tabName}.csv streams CSV;
// ?formulas=true answers formulas for keys allowed to read them (403 for the others)
export const GET = withApiKey<Params>(
  async ({ req, url, params, sheet, dataVersion, key }) => {
    const { tab, format, version } = await findReadTab(
      sheet,
      params.tabName,
      req.headers.get("accept"),
      key.browser,
      dataVersion,
    );
    const list = {
      sheet,
      tab,
      version,
      params: url.searchParams,
      options: { fresh: wantsFresh(req, key, url.searchParams), scope: key.browser, formulas: key.formulas === true },
    };
    if (format === "csv") {
      const csv = await listCsv(list);
      const headers = { ...readHeaders(csv), "X-Total-Count": String(csv.total) };
      return notModified(req, csv.etag, headers) ?? csvResponse(csv.body, tab.name, headers);
    }
    const answer = await listAnswer(list);
    const headers = readHeaders(answer);
    return notModified(req, answer.etag, headers) ?? jsonText(answer.text, { headers });
  },
  { permission: "read", browser: true },
);

// POST /api/v1/{sheetId}/{tabName} - create one row or many (an array, up to 1,000); with
// ?upsert=column, rows whose key matches are updated and the rest created; with an
// Idempotency-Key, a retry returns the first answer and writes nothing
export const POST = withApiKey<Params>(
  ({ req, url, params, sheet, key }) =>
    postRows({ req, key, sheet, tabName: params.tabName, params: url.searchParams }),
  { permission: "write" },
);

// PATCH /api/v1/{sheetId}/{tabName} - an object with ?filter=: the same cells of every matching
// row (at most `limit`, default 1; dry_run=true only counts); an array: each row found by its
// ?key= column (default id) gets its own values. One atomic write; If-Match, Idempotency-Key.
// Writes that choose rows by their values need Read as well (lib/sheets/write/write-routes.ts).
export const PATCH = withApiKey<Params>(
  ({ req, url, params, sheet, key }) =>
    patchRows({ req, key, sheet, tabName: params.tabName, params: url.searchParams }),
  { permission: "write" },
);

// DELETE /api/v1/{sheetId}/{tabName}?filter= - every matching row (at most `limit`, default 1;
// dry_run=true only counts), in one atomic write; If-Match, Idempotency-Key
export const DELETE = withApiKey<Params>(
  ({ req, url, params, sheet, key }) =>
    deleteRows({ req, key, sheet, tabName: params.tabName, params: url.searchParams }),
  { permission: "write" },
);

export const { PUT, OPTIONS } = keyRouteMethods(["GET", "POST", "PATCH", "DELETE"]);
