// Reads a spreadsheet's structure from Google: its title, its tabs, each tab's header row and a
// sample of rows for type inference, in two calls whatever the number of tabs.
import type { sheets_v4 } from "@googleapis/sheets";
import { DEFAULT_LOCALE } from "@/lib/sheets/values/cell-values";
import { buildTabModel, type SampleCell, type SheetModel } from "@/lib/sheets/values/tab-model";

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
  const where = { locale: meta.properties?.locale ?? DEFAULT_LOCALE.locale, timeZone: meta.properties?.timeZone ?? DEFAULT_LOCALE.timeZone };
  const grids = new Map<string, SampleCell[][]>();
  if (tabNames.length) {
    const { data } = await sheets.spreadsheets.get({
      spreadsheetId: sheetId,
      includeGridData: true,
      ranges: tabNames.map((t) => `${quoteTab(t)}!1:${TYPE_SAMPLE_ROWS + 1}`),
      fields: "sheets(properties.title,data(rowData(values(formattedValue,effectiveValue,effectiveFormat.numberFormat))))",
    });
    for (const s of data.sheets ?? []) {
      const rows = s.data?.[0]?.rowData ?? [];
      grids.set(s.properties?.title ?? "", rows.map((r) => (r.values ?? []) as SampleCell[]));
    }
  }
  return {
    sheetId,
    title: meta.properties?.title ?? sheetId,
    tabs: tabs.map(({ name, gid }) => buildTabModel(name, grids.get(name) ?? [], gid, where)),
    updatedAt: Date.now(),
  };
}
