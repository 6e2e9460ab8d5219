// The serial numbers of a tab's date and date-time columns, since a display such as "Jan 15" has
// no year (DECISIONS 3): one extra read per cached copy, only when a read needs them (README.md).
import { indexToColumn } from "@/lib/sheets/values/a1";
import { isDateType } from "@/lib/sheets/values/cell-values";
import { withGoogle } from "@/lib/sheets/sheet-access";
import { serialMatchesDisplay } from "@/lib/sheets/values/locale-dates";
import { parseListQuery } from "@/lib/sheets/read/query";
import { quoteTab } from "@/lib/sheets/read/read-model";
import type { TabData } from "@/lib/sheets/values/rows";
import { reshapeRows } from "@/lib/sheets/values/tab-columns";
import type { SheetRecord } from "@/lib/sheets/sheet-record";
import type { TabModel } from "@/lib/sheets/values/tab-model";

type Sheet = Pick<SheetRecord, "id" | "access" | "refreshTokenCiphertext">;

/** Each date column's cells from row 2 down, by column name and index in the sheet. */
export interface Serials {
  columns: { name: string; index: number; values: unknown[] }[];
}

export const dateColumnsOf = (model: Pick<TabModel, "columns">) => model.columns.filter((c) => isDateType(c.type));

/** Reads the serial numbers of the schema's date columns; undefined when the tab has none. */
export async function fetchSerials(sheet: Sheet, model: TabModel): Promise<Serials | undefined> {
  const columns = dateColumnsOf(model);
  if (!columns.length) return undefined;
  const { data } = await withGoogle(sheet, "spreadsheets.values.batchGet", (c) =>
    c.sheets.spreadsheets.values.batchGet({
      spreadsheetId: sheet.id,
      ranges: columns.map((col) => `${quoteTab(model.name)}!${indexToColumn(col.index)}2:${indexToColumn(col.index)}`),
      valueRenderOption: "UNFORMATTED_VALUE",
      dateTimeRenderOption: "SERIAL_NUMBER",
      majorDimension: "COLUMNS",
    }),
  );
  return {
    columns: columns.map((col, i) => ({
      name: col.name,
      index: col.index,
      values: (data.valueRanges?.[i]?.values?.[0] ?? []) as unknown[],
    })),
  };
}

/**
 * The copy with each date cell's serial number beside its display. A serial is kept only where
 * it is the date the cell displays (the two reads are separate: an edit between them must not
 * pair one cell's text with another's value); elsewhere the display stays the cell's value.
 */
export function withSerials(data: TabData, serials: Serials | undefined): TabData {
  if (!serials) return { ...data, dated: true };
  // A column read at the index the live header still gives it, under the same name.
  const read = serials.columns.flatMap((s) => {
    const at = data.columns.findIndex((c) => c.name === s.name && c.index === s.index && isDateType(c.type));
    return at >= 0 ? [{ at, column: data.columns[at]!, values: s.values }] : [];
  });
  if (!read.length) return { ...data, dated: true };
  const rows = reshapeRows(data.rows, {
    serials: (row) => {
      let serialsOfRow: (number | undefined)[] | undefined;
      const cells = row.cells;
      for (const { at, column, values } of read) {
        const serial = values[row.rowNumber - 2];
        const text = cells[at]!;
        if (
          typeof serial !== "number" ||
          text === "" ||
          !serialMatchesDisplay(serial, text, column.pattern, data.where.locale)
        )
          continue;
        (serialsOfRow ??= [])[at] = serial;
      }
      return serialsOfRow;
    },
  });
  return { ...data, rows, dated: true };
}

/**
 * Whether a filtered write's `filter` or `or` names a date column of the tab: its rows are then
 * found by their dates' serial numbers, as a read with the same filter finds them. A filter that
 * does not parse against the schema says no here; it is refused against the live tab.
 */
export function filtersOnDates(params: URLSearchParams, model: TabModel): boolean {
  const dates = new Set(dateColumnsOf(model).map((c) => c.name));
  if (!dates.size) return false;
  try {
    const query = parseListQuery(
      new URLSearchParams([...params].filter(([name]) => name === "filter" || name === "or")),
      ["id", ...model.columns.map((c) => c.name)],
    );
    return [...query.filters, ...query.anyOf.flat()].some((c) => dates.has(c.column));
  } catch {
    return false;
  }
}
