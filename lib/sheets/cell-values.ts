// What a displayed cell is worth, by its column's type and the sheet's locale and time zone:
// its typed JSON value (`?typed=true`) and the number filters and sort compare it by. Numbers,
// currency and percents compare by value in any locale; dates and date-times by the moment they
// name, never by their display text.
import { isoDate, isoDateTime, parseDisplayedDate, parseFilterDate, wallClockMs } from "./locale-dates";
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
const BOOLEANS: Record<string, boolean> = { TRUE: true, FALSE: false, WAHR: true, FALSCH: false, VRAI: true, FAUX: false };

export function typedValue(text: string, column: ValueColumn, where: SheetLocale = DEFAULT_LOCALE): JsonValue {
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
      const wall = parseDisplayedDate(text, column.pattern, where.locale);
      if (!wall) return text;
      return column.type === "date" && !wall.hasTime ? isoDate(wall) : isoDateTime(wall, where.timeZone);
    }
    default:
      return text;
  }
}

/** The number a cell compares and sorts by; undefined when it has none (then it compares as text). */
export function comparableValue(text: string, column: ValueColumn, where: SheetLocale): number | undefined {
  if (text === "") return undefined;
  if (DATES.has(column.type)) {
    const wall = parseDisplayedDate(text, column.pattern, where.locale);
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
export const comparesByValue = (type: ColumnType) => type === "number" || type === "currency" || type === "percent" || DATES.has(type);
