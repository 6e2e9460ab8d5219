// The read side of the rows API: find the tab, serve its rows from cache, query them.
import { ApiError, quoted } from "@/lib/http/errors";
import { applyQuery, parseBoolean, parseListQuery, parseSelect, queryColumns } from "./query";
import { rowEtag, rowToJson } from "./rows";
import { findRow } from "./row-writes";
import { getSheetModel, refreshSheetModel } from "./schema";
import type { SheetRecord } from "./sheet-record";
import { readTab, type CacheStatus } from "./tab-cache";
import type { TabModel } from "./tab-model";

/** The tab named in the path, case-sensitive; models stored before tab ids or locales were kept are re-read. */
export async function findTab(sheet: SheetRecord, tabName: string): Promise<TabModel> {
  let model = await getSheetModel(sheet);
  if (model.tabs.some((t) => typeof t.gid !== "number" || t.locale === undefined)) model = await refreshSheetModel(sheet);
  const tab = model.tabs.find((t) => t.name === tabName);
  if (!tab) {
    throw new ApiError(
      "not_found",
      `No tab named ${quoted(tabName)} in this sheet (names are case-sensitive). Tabs: ${model.tabs.map((t) => t.name).join(", ")}. A tab added since the last schema refresh appears after POST /api/{sheetId}/refresh-schema.`,
    );
  }
  return tab;
}

export async function listRows(sheet: SheetRecord, tab: TabModel, version: number | undefined, params: URLSearchParams, { fresh = false } = {}) {
  const { data, cache } = await readTab(sheet, tab, version, { fresh });
  const query = parseListQuery(params, queryColumns(data));
  const { rows, total } = applyQuery(data, query);
  return {
    cache,
    rows: rows.map((r) => rowToJson(data, r, query)),
    meta: { total, limit: query.limit, offset: query.offset, returned: rows.length },
  };
}

export async function getRow(sheet: SheetRecord, tab: TabModel, version: number | undefined, rowId: string, params: URLSearchParams, { fresh = false } = {}): Promise<{ row: ReturnType<typeof rowToJson>; cache: CacheStatus; etag: string }> {
  for (const key of params.keys()) {
    if (key !== "typed" && key !== "select") throw new ApiError("validation_error", `Unknown query parameter ${quoted(key)}. Use typed or select.`);
  }
  const { data, cache } = await readTab(sheet, tab, version, { fresh });
  const row = findRow(data, rowId);
  if (!row) throw new ApiError("not_found", `No row with id ${quoted(rowId)} in the tab "${tab.name}".`);
  const select = parseSelect(params.get("select"), queryColumns(data));
  return { row: rowToJson(data, row, { typed: parseBoolean("typed", params.get("typed")), select }), cache, etag: rowEtag(data, row) };
}
