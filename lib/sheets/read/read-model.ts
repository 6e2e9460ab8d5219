// Reads a spreadsheet's structure from Google: its title, its tabs, each tab's header row and a
// sample of rows for type inference, in two calls whatever the number of tabs.
import type { sheets_v4 } from "@googleapis/sheets";
import { ApiError, MAX_ECHO } from "@/lib/errors";
import { indexToColumn } from "@/lib/sheets/values/a1";
import { DEFAULT_LOCALE } from "@/lib/sheets/values/cell-values";
import { hasNul, withoutNul } from "@/lib/sheets/values/storable";
import { buildTabModel, type SampleCell, type SheetModel, type TabModel } from "@/lib/sheets/values/tab-model";

/** Rows below the header sampled for column types. */
export const TYPE_SAMPLE_ROWS = 100;

/** A1 tab reference; quoting is always valid and keeps spaces, quotes and unicode safe. */
export function quoteTab(name: string): string {
  return `'${name.replace(/'/g, "''")}'`;
}

export async function readSheetModel(sheets: sheets_v4.Sheets, sheetId: string): Promise<SheetModel> {
  const { data: meta } = await sheets.spreadsheets.get({
    spreadsheetId: sheetId,
    fields: "properties(title,locale,timeZone),sheets.properties(sheetId,title,index,sheetType)",
  });
  const tabs = (meta.sheets ?? [])
    .filter((s) => (s.properties?.sheetType ?? "GRID") === "GRID" && s.properties?.title)
    .map((s) => ({ name: s.properties!.title!, gid: s.properties!.sheetId ?? 0 }));
  const tabNames = tabs.map((t) => t.name);
  // Every tab is read in the spreadsheet's own locale and time zone.
  const where = {
    locale: meta.properties?.locale ?? DEFAULT_LOCALE.locale,
    timeZone: meta.properties?.timeZone ?? DEFAULT_LOCALE.timeZone,
  };
  const grids = new Map<string, SampleCell[][]>();
  if (tabNames.length) {
    const { data } = await sheets.spreadsheets.get({
      spreadsheetId: sheetId,
      includeGridData: true,
      ranges: tabNames.map((t) => `${quoteTab(t)}!1:${TYPE_SAMPLE_ROWS + 1}`),
      fields:
        "sheets(properties.title,data(rowData(values(formattedValue,effectiveValue,effectiveFormat.numberFormat))))",
    });
    for (const s of data.sheets ?? []) {
      const rows = s.data?.[0]?.rowData ?? [];
      grids.set(
        s.properties?.title ?? "",
        rows.map((r) => (r.values ?? []) as SampleCell[]),
      );
    }
  }
  return {
    sheetId,
    title: withoutNul(meta.properties?.title ?? sheetId),
    tabs: tabs.map(({ name, gid }) =>
      storableTab(buildTabModel(name, grids.get(name) ?? [], gid, where), grids.get(name)?.[0] ?? []),
    ),
    updatedAt: Date.now(),
  };
}

const NUL_HELP =
  "holds a NUL character (U+0000, shown here as U+FFFD), which the service cannot store. Remove it in Google Sheets, then register the sheet again or refresh its schema.";

/**
 * The tab as it can be stored: a tab name or header cell with a NUL is refused (the service keys
 * rows, events and reads on them, so a stand-in would name another tab or column), naming where
 * it is; a date pattern's NUL, which only shapes how dates are read, becomes U+FFFD.
 */
function storableTab(tab: TabModel, header: SampleCell[]): TabModel {
  const shown = `"${withoutNul(tab.name).slice(0, MAX_ECHO)}"`;
  if (hasNul(tab.name))
    throw new ApiError("validation_error", `The name of the tab ${shown} ${NUL_HELP}`, {
      tab: withoutNul(tab.name).slice(0, MAX_ECHO),
    });
  const at = header.findIndex((c) => hasNul(c?.formattedValue ?? ""));
  if (at >= 0)
    throw new ApiError("validation_error", `The header cell ${indexToColumn(at)}1 of the tab ${shown} ${NUL_HELP}`, {
      tab: tab.name,
      cell: `${indexToColumn(at)}1`,
    });
  return {
    ...tab,
    columns: tab.columns.map((c) => (c.pattern && hasNul(c.pattern) ? { ...c, pattern: withoutNul(c.pattern) } : c)),
  };
}
