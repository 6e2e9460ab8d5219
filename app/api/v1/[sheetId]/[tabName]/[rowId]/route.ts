import { notModified, wantsFresh } from "@/lib/http/conditional";
import { jsonText } from "@/lib/http/envelope";
import { readHeaders } from "@/lib/http/read-headers";
import { keyRouteMethods, withApiKey } from "@/lib/routes/with-api-key";
import { rowAfterUnknownWrites } from "@/lib/sheets/write/tab-turn";
import { deleteOneRow, putRow } from "@/lib/sheets/write/write-routes";
import { findTab, rowAnswer } from "@/lib/sheets/read/rows-api";

export const dynamic = "force-dynamic";
type Params = { sheetId: string; tabName: string; rowId: string };

// GET /api/v1/{sheetId}/{tabName}/{rowId} - one row, with the row's ETag (If-None-Match: 304),
// Last-Modified and Age of the copy it comes from; ?formulas=true for keys allowed to read them
export const GET = withApiKey<Params>(
  async ({ req, url, params, sheet, dataVersion, key }) => {
    const scope = key.browser;
    const tab = await findTab(sheet, params.tabName, scope);
    // Not found while a write of the tab has an unknown outcome: settled first, then read again.
    const answer = await rowAfterUnknownWrites(sheet, tab, (settled) =>
      rowAnswer(sheet, tab, dataVersion, params.rowId, url.searchParams, {
        fresh: settled || wantsFresh(req, key, url.searchParams),
        scope,
        formulas: key.formulas === true,
      }),
    );
    const headers = readHeaders(answer);
    return notModified(req, answer.etag, headers) ?? jsonText(answer.text, { headers });
  },
  { permission: "read", browser: true },
);

// PUT /api/v1/{sheetId}/{tabName}/{rowId} - change the named fields only (PATCH does the same);
// with If-Match, only if the row is still as read (else 412)
export const PUT = withApiKey<Params>(
  ({ req, url, params, sheet, key }) =>
    putRow({ req, key, sheet, tabName: params.tabName, rowId: params.rowId, params: url.searchParams }),
  { permission: "write" },
);
export const PATCH = PUT;

// DELETE /api/v1/{sheetId}/{tabName}/{rowId} - remove exactly this row; with If-Match, only if unchanged
export const DELETE = withApiKey<Params>(
  ({ req, url, params, sheet, key }) =>
    deleteOneRow({ req, key, sheet, tabName: params.tabName, rowId: params.rowId, params: url.searchParams }),
  { permission: "write" },
);

export const { POST, OPTIONS } = keyRouteMethods(["GET", "PUT", "PATCH", "DELETE"]);
