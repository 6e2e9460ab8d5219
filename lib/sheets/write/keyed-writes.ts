// Writes that find their rows by a key column (DECISIONS 5-7a hold for each), by the locked
// single step path: update many rows with different values (PATCH with an array), and upsert
// (POST ?upsert=column). The tab read as it is now, every row found and checked, then one guarded
// batchUpdate does all of it, or nothing is written.
import { ApiError, OutcomeUnknown, quoted } from "@/lib/errors";
import { checkParams } from "@/lib/sheets/read/query-params";
import { checkSingle } from "@/lib/http/query-params";
import { fetchTab } from "@/lib/sheets/read/tab-cache";
import { rowToJson, type JsonValue, type TabRow } from "@/lib/sheets/values/rows";
import { recordApiWrite } from "@/lib/webhooks/changes";
import { checkColumns, displayed, rowsOfCreateBody, type RowInput } from "./row-input";
import { assignIds } from "./row-ids";
import { cellUpdates, insertRows, newRowCells, rowsRange } from "./row-cells";
import { bad, checkIfMatch, keyColumn, keyIndex, keysOf, MAX_ROWS_PER_WRITE, uniqueMatch } from "./row-matching";
import { asShown, patched, retryHint, send } from "./locked-send";
import { updateAnswer, type UpdateResult } from "./filtered-writes";
import { lockedStep } from "./tab-turn";
import { idColumnOf } from "./value-input";
import type { SheetsRequest } from "./write-guard";
import { earlierLanded, requireWritable, type ByValueRequest, type EarlierLanded } from "./write-request";

function bodyRows(body: unknown, what: string): RowInput[] {
  if (!Array.isArray(body)) throw bad(`${what} takes an array of rows.`);
  if (body.length > MAX_ROWS_PER_WRITE)
    throw bad(`At most ${MAX_ROWS_PER_WRITE} rows can be written in one request; got ${body.length}.`);
  return rowsOfCreateBody(body);
}

/** PATCH /{tab} with an array: each item finds its row by `key` (default id) and changes its other named cells. */
export async function updateEach(request: ByValueRequest): Promise<UpdateResult | EarlierLanded> {
  const { sheet, tab: model, params } = request;
  requireWritable(sheet);
  checkParams(params, ["key"]);
  checkSingle(params, ["key"]);
  const items = bodyRows(request.body, "A bulk update");
  return lockedStep(sheet, model, async () => {
    if (await earlierLanded(request)) return "earlier-landed";
    const data = await fetchTab(sheet, model);
    const key = keyColumn(params, "key", data, { creates: false });
    const keys = keysOf(items, key);
    const patches = items.map((item) =>
      Object.assign(
        Object.create(null) as RowInput,
        Object.fromEntries(Object.entries(item).filter(([name]) => name !== key)),
      ),
    );
    patches.forEach((p, i) => {
      if (!Object.keys(p).length) throw bad(`Row ${i + 1} of the body names only its key: name a column to change.`);
    });
    checkColumns(patches, data, { update: true });
    const find = keyIndex(data, key);
    const targets = keys.map((value) => {
      const row = uniqueMatch(data, find, key, value);
      if (!row)
        throw new ApiError("not_found", `No row of "${data.tab}" has ${key} ${quoted(value)}; nothing was changed.`);
      return row;
    });
    if (new Set(targets).size !== targets.length)
      throw bad("Two rows of the body find the same row of the sheet: each row is written once.");
    checkIfMatch(data, targets, request.ifMatch);
    const after = targets.map((r, i) => patched(data, r, patches[i]!));
    const answer = updateAnswer(data, targets.length, after);
    const shown = await send(
      sheet,
      model,
      "update",
      targets.flatMap((r, i) => cellUpdates(data, model, r, patches[i]!)),
      (writeId) =>
        new OutcomeUnknown(
          `Google Sheets did not confirm the update of ${targets.length} row(s) in time; the outcome is unknown (it applies whole or not at all, and never after a later write to this tab). ${retryHint(request)}`,
          writeId,
          answer,
        ),
      { readBack: targets.map((r) => r.rowNumber) },
    );
    const result = after.map((r) => asShown(data, r, shown));
    await recordApiWrite(sheet.id, data, { updated: result });
    return updateAnswer(data, targets.length, result);
  });
}

export interface UpsertResult {
  created: number;
  updated: number;
  rows: Record<string, JsonValue>[];
}

/**
 * POST /{tab}?upsert=column: each body row whose key matches a row of the tab updates that row's
 * named cells; the others are appended after the tab's last row (with ids as creates get them).
 */
export async function upsertRows(request: ByValueRequest): Promise<UpsertResult | EarlierLanded> {
  const { sheet, tab: model, params } = request;
  requireWritable(sheet);
  const rows = rowsOfCreateBody(request.body);
  return lockedStep(sheet, model, async () => {
    if (await earlierLanded(request)) return "earlier-landed";
    const data = await fetchTab(sheet, model);
    const key = keyColumn(params, "upsert", data, { creates: true });
    const keys = keysOf(rows, key);
    checkColumns(rows, data, { update: false });
    const find = keyIndex(data, key);
    const targets = keys.map((value) => uniqueMatch(data, find, key, value));
    const existing = rows.flatMap((row, i) => {
      const target = targets[i];
      if (!target) return [];
      if (key !== "id" && "id" in row && displayed(row.id!) !== target.id)
        throw bad(`Row ${i + 1} of the body would change the id of row ${target.id}: id cannot be changed.`);
      return [
        {
          i,
          row: target,
          patch: Object.assign(
            Object.create(null) as RowInput,
            Object.fromEntries(Object.entries(row).filter(([name]) => name !== key && name !== "id")),
          ),
        },
      ];
    });
    const fresh = rows.flatMap((row, i) => (targets[i] ? [] : [{ i, row }]));
    checkIfMatch(
      data,
      existing.map((e) => e.row),
      request.ifMatch,
    );
    const ids =
      data.hasIdColumn && fresh.length
        ? await assignIds(
            sheet,
            model,
            data,
            fresh.map((f) => f.row),
          )
        : [];
    const at = data.lastRowNumber;
    const written: TabRow[] = new Array(rows.length);
    for (const e of existing) written[e.i] = patched(data, e.row, e.patch);
    fresh.forEach((f, k) => {
      const rowNumber = at + 1 + k;
      const id = data.hasIdColumn ? ids[k]! : String(rowNumber);
      written[f.i] = {
        rowNumber,
        id,
        cells: data.columns.map((c) => (c.name === "id" && data.hasIdColumn ? id : displayed(f.row[c.name] ?? null))),
      };
    });
    const answerOf = (shown: Map<number, string[]>): UpsertResult => ({
      created: fresh.length,
      updated: existing.length,
      rows: written.map((r) => rowToJson(data, asShown(data, r, shown))),
    });
    const answer = answerOf(new Map());
    const range = rowsRange(model, at, fresh.length);
    const requests: SheetsRequest[] = [
      ...existing.flatMap((e) => cellUpdates(data, model, e.row, e.patch)),
      ...(fresh.length
        ? insertRows(
            model,
            at,
            newRowCells(
              data,
              fresh.map((f) => f.row),
              ids,
            ),
          )
        : []),
    ];
    if (!requests.length) return answer;
    const shown = await send(
      sheet,
      model,
      "upsert",
      requests,
      (writeId) =>
        new OutcomeUnknown(
          `Google Sheets did not confirm the upsert of ${rows.length} row(s) in time; the outcome is unknown (it applies whole or not at all, once). ${retryHint(request)}`,
          writeId,
          answer,
        ),
      {
        location: fresh.length ? { dimensionRange: range } : { sheetId: model.gid },
        readBack: written.map((r) => r.rowNumber),
        idColumn: idColumnOf(data),
      },
    );
    const result = answerOf(shown);
    await recordApiWrite(sheet.id, data, {
      updated: existing.map((e) => asShown(data, written[e.i]!, shown)),
      created: fresh.map((f) => result.rows[f.i]!),
    });
    return result;
  });
}
