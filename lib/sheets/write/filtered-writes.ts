// Update or delete the rows a filter matches (DECISIONS 5-7a hold for each), by the locked single
// step path: the tab read as it is now, every row found and checked (`limit`, If-Match), then one
// guarded batchUpdate does all of it, or nothing is written. `dry_run=true` answers what it would
// match without writing or taking the tab's turn.
import { OutcomeUnknown } from "@/lib/errors";
import { parseBoolean } from "@/lib/sheets/read/query";
import { fetchTab } from "@/lib/sheets/read/tab-cache";
import { filtersOnDates } from "@/lib/sheets/read/date-values";
import { rowEtag, rowToJson, type JsonValue, type TabData, type TabRow } from "@/lib/sheets/values/rows";
import { recordApiWrite } from "@/lib/webhooks/changes";
import { checkColumns, checkRowShape } from "./row-input";
import { appendBlankRow, cellUpdates, refusesDeletingEveryRow } from "./row-cells";
import { bad, checkIfMatch, checkLimit, checkScopeParams, scopeOf, type Scope } from "./row-matching";
import { asShown, patched, retryHint, rowDeletes, send } from "./locked-send";
import { lockedStep } from "./tab-turn";
import { earlierLanded, requireWritable, type ByValueRequest, type EarlierLanded } from "./write-request";

export interface UpdateResult {
  matched: number;
  updated: number;
  dry_run: boolean;
  rows: Record<string, JsonValue>[];
  etags: string[];
}

export const updateAnswer = (data: TabData, updated: number, rows: TabRow[]): UpdateResult => ({
  matched: rows.length,
  updated,
  dry_run: false,
  rows: rows.map((r) => rowToJson(data, r)),
  etags: rows.map((r) => rowEtag(data, r)),
});

/** PATCH /{tab}?filter=: the body's cells written to every matching row. */
export async function updateWhere(request: ByValueRequest): Promise<UpdateResult | EarlierLanded> {
  const { sheet, tab: model, params } = request;
  requireWritable(sheet);
  checkScopeParams(params);
  const patch = checkRowShape(request.body);
  if ("id" in patch) throw bad("id cannot be changed: it identifies the row.");
  const plan = (data: TabData) => {
    checkColumns([patch], data, { update: true });
    return scopeOf(params, data);
  };
  const dates = filtersOnDates(params, model);
  const preview = async () => {
    const data = await fetchTab(sheet, model, { dates });
    const scope = plan(data);
    return scope.dryRun
      ? {
          matched: scope.rows.length,
          updated: 0,
          dry_run: true,
          rows: scope.rows.map((r) => rowToJson(data, r)),
          etags: scope.rows.map((r) => rowEtag(data, r)),
        }
      : undefined;
  };
  if (parseBoolean("dry_run", params.get("dry_run"))) return (await preview())!;
  return lockedStep(sheet, model, async () => {
    if (await earlierLanded(request)) return "earlier-landed";
    const data = await fetchTab(sheet, model, { dates });
    const scope = plan(data);
    checkLimit(scope);
    checkIfMatch(data, scope.rows, request.ifMatch);
    const after = scope.rows.map((r) => patched(data, r, patch));
    const answer = updateAnswer(data, scope.rows.length, after);
    if (!scope.rows.length) return answer;
    const shown = await send(
      sheet,
      model,
      "update",
      scope.rows.flatMap((r) => cellUpdates(data, model, r, patch)),
      (writeId) =>
        new OutcomeUnknown(
          `Google Sheets did not confirm the update of ${scope.rows.length} row(s) (ids ${scope.rows.map((r) => r.id).join(", ")}) in time; the outcome is unknown (it applies whole or not at all, and never after a later write to this tab). ${retryHint(request)}`,
          writeId,
          answer,
        ),
      { readBack: scope.rows.map((r) => r.rowNumber) },
    );
    const result = after.map((r) => asShown(data, r, shown));
    await recordApiWrite(sheet.id, data, { updated: result });
    return updateAnswer(data, scope.rows.length, result);
  });
}

export interface DeleteResult {
  matched: number;
  deleted: number;
  dry_run: boolean;
  ids: string[];
  etags: string[];
}

/** DELETE /{tab}?filter=: every matching row removed, in one batch. */
export async function deleteWhere(request: ByValueRequest): Promise<DeleteResult | EarlierLanded> {
  const { sheet, tab: model, params } = request;
  requireWritable(sheet);
  checkScopeParams(params);
  const describe = (data: TabData, scope: Scope, deleted: number): DeleteResult => ({
    matched: scope.rows.length,
    deleted,
    dry_run: scope.dryRun,
    ids: scope.rows.map((r) => r.id),
    etags: scope.rows.map((r) => rowEtag(data, r)),
  });
  const dates = filtersOnDates(params, model);
  if (parseBoolean("dry_run", params.get("dry_run"))) {
    const data = await fetchTab(sheet, model, { dates });
    return describe(data, scopeOf(params, data), 0);
  }
  return lockedStep(sheet, model, async () => {
    if (await earlierLanded(request)) return "earlier-landed";
    const data = await fetchTab(sheet, model, { dates });
    const scope = scopeOf(params, data);
    checkLimit(scope);
    checkIfMatch(data, scope.rows, request.ifMatch);
    const answer = describe(data, scope, scope.rows.length);
    if (!scope.rows.length) return answer;
    const remove = (growFirst: boolean) =>
      send(
        sheet,
        model,
        "delete",
        [...(growFirst ? [appendBlankRow(model.gid)] : []), ...rowDeletes(model, scope.rows)],
        (writeId) =>
          new OutcomeUnknown(
            `Google Sheets did not confirm the delete of ${scope.rows.length} row(s) (ids ${answer.ids.join(", ")}) in time; the outcome is unknown (it applies whole or not at all, to these rows only). ${retryHint(request)}`,
            writeId,
            answer,
          ),
      );
    // Every row under a frozen header: Google wants a row left, so a blank one is added in the same batch.
    await remove(false).catch((err: unknown) => (refusesDeletingEveryRow(err) ? remove(true) : Promise.reject(err)));
    await recordApiWrite(sheet.id, data, { deleted: scope.rows });
    return answer;
  });
}
