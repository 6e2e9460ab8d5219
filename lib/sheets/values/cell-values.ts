// What a displayed cell is worth, by its column's type and the sheet's locale and time zone: its
// typed value and what filters and sorts compare; dates by the moment they name (README.md).
import {
  isoDate,
  isoDateTime,
  parseDisplayedDate,
  parseFilterDate,
  serialWallClock,
  wallClockMs,
  type WallClock,
} from "./locale-dates";
import { parseDisplayedNumber, parseFilterNumber } from "./locale-numbers";
import type { ColumnType } from "./tab-model";

export type JsonValue = string | number | boolean | null;

/** The sheet's `properties.locale` and `properties.timeZone`; Google's defaults when unknown. */
export interface SheetLocale {
  locale: string;
  timeZone: string;
}

export const DEFAULT_LOCALE: SheetLocale = { locale: "en_US", timeZone: "Etc/UTC" };

/** The locale a tab model was read in; Google's defaults for models stored before it was kept. */
export const sheetLocaleOf = (model?: { locale?: string; timeZone?: string }): SheetLocale => ({
  locale: model?.locale ?? DEFAULT_LOCALE.locale,
  timeZone: model?.timeZone ?? DEFAULT_LOCALE.timeZone,
});

export interface ValueColumn {
  type: ColumnType;
  /** The column's number format pattern, as the schema sampled it. */
  pattern?: string;
}

const DATES: ReadonlySet<ColumnType> = new Set(["date", "datetime"]);
export const isDateType = (type: ColumnType) => DATES.has(type);
const BOOLEANS: Record<string, boolean> = {
  TRUE: true,
  FALSE: false,
  WAHR: true,
  FALSCH: false,
  VRAI: true,
  FAUX: false,
};

/** A date cell's wall clock: from its serial number when known, else from its display. */
function dateOf(
  text: string,
  column: ValueColumn,
  where: SheetLocale,
  serial: number | undefined,
): WallClock | undefined {
  // A date column's value is its calendar day, whatever time of day the serial carries.
  return serial !== undefined
    ? serialWallClock(serial, column.type === "date")
    : parseDisplayedDate(text, column.pattern, where.locale);
}

/** `serial`: the cell's underlying value, for date and date-time columns whose copy has it. */
export function typedValue(
  text: string,
  column: ValueColumn,
  where: SheetLocale = DEFAULT_LOCALE,
  serial?: number,
): JsonValue {
  if (text === "") return null;
  switch (column.type) {
    case "boolean":
      return BOOLEANS[text.toUpperCase()] ?? text;
    case "number":
    case "currency":
    case "percent":
      return parseDisplayedNumber(text, where.locale)?.value ?? text;
    case "date":
    case "datetime": {
      const wall = dateOf(text, column, where, serial);
      if (!wall) return text;
      if (column.type === "date" && !wall.hasTime) return isoDate(wall);
      return isoDateTime(wall, where.timeZone);
    }
    default:
      return text;
  }
}

/** The number a cell compares and sorts by; undefined when it has none (then it compares as text). */
export function comparableValue(
  text: string,
  column: ValueColumn,
  where: SheetLocale,
  serial?: number,
): number | undefined {
  if (text === "") return undefined;
  if (DATES.has(column.type)) {
    const wall = dateOf(text, column, where, serial);
    return wall ? wallClockMs(wall) : undefined;
  }
  return parseDisplayedNumber(text, where.locale)?.value;
}

/** The number a filter's value compares by, read as the column's cells are. */
export function comparableTarget(text: string, column: ValueColumn, where: SheetLocale): number | undefined {
  if (DATES.has(column.type)) return parseFilterDate(text, column.pattern, where.locale, where.timeZone);
  return parseFilterNumber(text, where.locale);
}

/** Columns whose cells are equal when their values are, whatever the display ("24,50 €" = 24.5). */
export const comparesByValue = (type: ColumnType) =>
  type === "number" || type === "currency" || type === "percent" || DATES.has(type);

/**
 * Whether `=`, `!=` and upsert keys match the column's cells by value too. Never the id column:
 * an id names one row exactly, as `/{tabName}/{rowId}` does ("05" is not row 5), so a
 * `DELETE ?filter=id=05` cannot remove a row the caller did not name.
 */
export const equalsByValue = (column: { name?: string; type: ColumnType }) =>
  column.name !== "id" && comparesByValue(column.type);
