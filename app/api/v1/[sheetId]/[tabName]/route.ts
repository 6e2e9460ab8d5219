import { readJsonBody } from "@/lib/http/body";
import { notModified, wantsFresh } from "@/lib/http/conditional";
import { csvResponse, jsonText, ok } from "@/lib/http/envelope";
import { readHeaders } from "@/lib/http/read-headers";
import { keyRouteMethods, requirePermission, withApiKey } from "@/lib/routes/with-api-key";
import { deleteWhere, updateEach, updateWhere, upsertRows } from "@/lib/sheets/write/bulk-writes";
import { checkWriteParams } from "@/lib/sheets/read/query-params";
import { createRows } from "@/lib/sheets/write/row-writes";
import { findReadTab, findWriteTab, listAnswer, listCsv } from "@/lib/sheets/read/rows-api";
import { refuseFormulas } from "@/lib/sheets/write/formula-guard";
import { idempotentWrite } from "@/lib/sheets/write/replay";

export const dynamic = "force-dynamic";
type Params = { sheetId: string; tabName: string };

// GET /api/v1/{sheetId}/{tabName} - list rows: filter, sort, page, select; ETag of the rows
// returned (If-None-Match: 304), Last-Modified and Age of the copy; Cache-Control: no-cache or
// ?fresh=true reads the sheet as it is now; Accept: text/csv or {tabName}.csv streams CSV;
// ?formulas=true answers formulas for keys allowed to read them (403 for the others)
export const GET = withApiKey<Params>(
  async ({ req, url, params, sheet, dataVersion, key }) => {
    const { tab, format, version } = await findReadTab(sheet, params.tabName, req.headers.get("accept"), key.browser, dataVersion);
    const args = [sheet, tab, version, url.searchParams, { fresh: wantsFresh(req, key, url.searchParams), scope: key.browser, formulas: key.formulas === true }] as const;
    if (format === "csv") {
      const csv = await listCsv(...args);
      const headers = { ...readHeaders(csv), "X-Total-Count": String(csv.total) };
      return notModified(req, csv.etag, headers) ?? csvResponse(csv.body, tab.name, headers);
    }
    const answer = await listAnswer(...args);
    const headers = readHeaders(answer);
    return notModified(req, answer.etag, headers) ?? jsonText(answer.text, { headers });
  },
  { permission: "read", browser: true },
);

// POST /api/v1/{sheetId}/{tabName} - create one row or many (an array, up to 1,000); with
// ?upsert=column, rows whose key matches are updated and the rest created; with an
// Idempotency-Key, a retry returns the first answer and writes nothing
export const POST = withApiKey<Params>(
  async ({ req, url, params, sheet, key }) => {
    checkWriteParams(url.searchParams, ["upsert"]);
    const upsert = url.searchParams.get("upsert");
    if (upsert !== null) requirePermission(key, "read", UPSERT_READS);
    const body = await readJsonBody(req);
    refuseFormulas(key, sheet, body);
    return idempotentWrite(req, key.userId, upsert === null ? body : { upsert, body }, async (replay, answerOf) => {
      const tab = await findWriteTab(sheet, params.tabName);
      const opts = { ...replay, ifMatch: req.headers.get("if-match") };
      const answer = answerOf(upsert === null ? await createRows(sheet, tab, body, opts) : await upsertRows(sheet, tab, upsert, body, opts));
      return ok({ data: answer }, { status: upsert !== null && (answer as { created?: number }).created === 0 ? 200 : 201 });
    });
  },
  { permission: "write" },
);

// A write that chooses its rows by their values (a filter, an array PATCH keyed by a column other
// than id, an upsert) answers the rows it matched, or whether one matched (a dry run only answers
// them): it reads the tab, so it needs Read beside Write. A Write-only key (a form handler's, say)
// creates rows and changes or deletes rows by id, and learns nothing else of the tab.
const choosesByValue = (search: URLSearchParams) => search.has("filter") || search.has("or") || search.has("dry_run") || (search.has("key") && search.get("key") !== "id");
const FILTERED_WRITES_READ = "Writes that choose rows by their values (?filter=, its dry runs, an array keyed by a ?key= column other than id) read the rows they match, so they need Read as well as Write; to change or delete rows by their id, use /{tabName}/{rowId} or an array keyed by id.";
const UPSERT_READS = "An upsert looks each row up by its ?upsert= column and answers the rows it matched, so it needs Read as well as Write; without Read, create rows with POST alone and change them by id.";

// PATCH /api/v1/{sheetId}/{tabName} - an object with ?filter=: the same cells of every matching
// row (at most `limit`, default 1; dry_run=true only counts); an array: each row found by its
// ?key= column (default id) gets its own values. One atomic write; If-Match, Idempotency-Key.
export const PATCH = withApiKey<Params>(
  async ({ req, params, sheet, key }) => {
    const search = new URL(req.url).searchParams;
    if (choosesByValue(search)) requirePermission(key, "read", FILTERED_WRITES_READ);
    const body = await readJsonBody(req);
    refuseFormulas(key, sheet, body);
    return idempotentWrite(req, key.userId, { search: search.toString(), body }, async (replay, answerOf) => {
      const tab = await findWriteTab(sheet, params.tabName);
      const opts = { ...replay, ifMatch: req.headers.get("if-match") };
      return ok({ data: answerOf(Array.isArray(body) ? await updateEach(sheet, tab, search, body, opts) : await updateWhere(sheet, tab, search, body, opts)) });
    });
  },
  { permission: "write" },
);

// DELETE /api/v1/{sheetId}/{tabName}?filter= - every matching row (at most `limit`, default 1;
// dry_run=true only counts), in one atomic write; If-Match, Idempotency-Key
export const DELETE = withApiKey<Params>(
  async ({ req, params, sheet, key }) => {
    const search = new URL(req.url).searchParams;
    if (choosesByValue(search)) requirePermission(key, "read", FILTERED_WRITES_READ);
    return idempotentWrite(req, key.userId, { search: search.toString() }, async (replay, answerOf) => {
      const tab = await findWriteTab(sheet, params.tabName);
      const answer = answerOf(await deleteWhere(sheet, tab, search, { ...replay, ifMatch: req.headers.get("if-match") }));
      const message = answer.dry_run ? `${answer.matched} row(s) of "${tab.name}" match; nothing was deleted (dry run).` : `${answer.deleted} row(s) deleted from "${tab.name}".`;
      return ok({ message, data: answer });
    });
  },
  { permission: "write" },
);

export const { PUT, OPTIONS } = keyRouteMethods(["GET", "POST", "PATCH", "DELETE"]);
