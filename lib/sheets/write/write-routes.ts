// The write routes' policy: what each needs of the key beyond Write, which query it takes, which
// verb it calls, and its answer. A route parses its path and hands one RouteWrite here.
import { readJsonBody } from "@/lib/http/body";
import { ok } from "@/lib/http/envelope";
import { requirePermission } from "@/lib/keys/permissions";
import type { KeyRecord } from "@/lib/keys/key-record";
import type { SheetRecord } from "@/lib/sheets/sheet-record";
import { checkWriteParams } from "@/lib/sheets/read/query-params";
import { findWriteTab } from "@/lib/sheets/read/rows-api";
import { refuseFormulas } from "./formula-guard";
import { idempotentWrite } from "./replay";
import { createRows } from "./create-rows";
import { updateRow } from "./update-row";
import { deleteRow } from "./delete-row";
import { deleteWhere, updateWhere } from "./filtered-writes";
import { updateEach, upsertRows } from "./keyed-writes";
import type { ReplayOptions, WriteRequest } from "./write-request";

/** A write as its route received it. */
export interface RouteWrite {
  req: Request;
  key: KeyRecord;
  sheet: SheetRecord;
  tabName: string;
  params: URLSearchParams;
  /** The row of /{tabName}/{rowId}. */
  rowId?: string;
}

// A write that chooses its rows by their values (a filter, an array PATCH keyed by a column other
// than id, an upsert) answers the rows it matched, or whether one matched (a dry run only answers
// them): it reads the tab, so it needs Read beside Write. A Write-only key (a form handler's, say)
// creates rows and changes or deletes rows by id, and learns nothing else of the tab.
const choosesByValue = (search: URLSearchParams) =>
  search.has("filter") ||
  search.has("or") ||
  search.has("dry_run") ||
  (search.has("key") && search.get("key") !== "id");
const FILTERED_WRITES_READ =
  "Writes that choose rows by their values (?filter=, its dry runs, an array keyed by a ?key= column other than id) read the rows they match, so they need Read as well as Write; to change or delete rows by their id, use /{tabName}/{rowId} or an array keyed by id.";
const UPSERT_READS =
  "An upsert looks each row up by its ?upsert= column and answers the rows it matched, so it needs Read as well as Write; without Read, create rows with POST alone and change them by id.";

/** The request object the verbs take; the tab is found once the Idempotency-Key let the write go on. */
async function writeRequest(
  w: RouteWrite,
  replay: ReplayOptions,
  body?: unknown,
): Promise<WriteRequest & { params: URLSearchParams; body: unknown }> {
  return {
    sheet: w.sheet,
    tab: await findWriteTab(w.sheet, w.tabName),
    body,
    params: w.params,
    rowId: w.rowId,
    ifMatch: w.req.headers.get("if-match"),
    ...replay,
  };
}

/** POST /{tab}: create rows; with ?upsert=column, update the rows whose key matches and create the rest (200 when none was created). */
export async function postRows(w: RouteWrite): Promise<Response> {
  checkWriteParams(w.params, ["upsert"]);
  const upsert = w.params.get("upsert");
  if (upsert !== null) requirePermission(w.key, "read", UPSERT_READS);
  const body = await readJsonBody(w.req);
  refuseFormulas(w.key, w.sheet, body);
  return idempotentWrite(w.req, w.key.userId, upsert === null ? body : { upsert, body }, async (replay, answerOf) => {
    const request = await writeRequest(w, replay, body);
    const answer = answerOf(upsert === null ? await createRows(request) : await upsertRows(request));
    return ok(
      { data: answer },
      { status: upsert !== null && (answer as { created?: number }).created === 0 ? 200 : 201 },
    );
  });
}

/** PATCH /{tab}: an object with ?filter= changes the rows it matches; an array, each row found by ?key= (default id). */
export async function patchRows(w: RouteWrite): Promise<Response> {
  if (choosesByValue(w.params)) requirePermission(w.key, "read", FILTERED_WRITES_READ);
  const body = await readJsonBody(w.req);
  refuseFormulas(w.key, w.sheet, body);
  return idempotentWrite(w.req, w.key.userId, { search: w.params.toString(), body }, async (replay, answerOf) => {
    const request = await writeRequest(w, replay, body);
    return ok({ data: answerOf(Array.isArray(body) ? await updateEach(request) : await updateWhere(request)) });
  });
}

/** DELETE /{tab}?filter=: the rows it matches. */
export async function deleteRows(w: RouteWrite): Promise<Response> {
  if (choosesByValue(w.params)) requirePermission(w.key, "read", FILTERED_WRITES_READ);
  return idempotentWrite(w.req, w.key.userId, { search: w.params.toString() }, async (replay, answerOf) => {
    const request = await writeRequest(w, replay);
    const answer = answerOf(await deleteWhere(request));
    const message = answer.dry_run
      ? `${answer.matched} row(s) of "${request.tab.name}" match; nothing was deleted (dry run).`
      : `${answer.deleted} row(s) deleted from "${request.tab.name}".`;
    return ok({ message, data: answer });
  });
}

/** PUT or PATCH /{tab}/{rowId}: the named fields of the row, answered with its new ETag. */
export async function putRow(w: RouteWrite & { rowId: string }): Promise<Response> {
  checkWriteParams(w.params, []);
  const body = await readJsonBody(w.req);
  refuseFormulas(w.key, w.sheet, body);
  const { row, etag } = await updateRow({ ...(await writeRequest(w, {}, body)), rowId: w.rowId });
  return ok({ data: row }, { headers: { ETag: etag } });
}

/** DELETE /{tab}/{rowId}: exactly this row. */
export async function deleteOneRow(w: RouteWrite & { rowId: string }): Promise<Response> {
  checkWriteParams(w.params, []);
  return ok({ message: await deleteRow({ ...(await writeRequest(w, {})), rowId: w.rowId }) });
}
