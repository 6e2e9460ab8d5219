// Cell values and number formats, shaped like the Sheets API's CellData.
import type { LocaleRules } from "./locales";
import { formatDateTime, formatGeneral, formatNumber } from "./number-format";
import { isError, type Cell, type Computed, type NumberFormat, type Scalar } from "./values";

export { rawCell } from "./values";
export type { Cell, NumberFormat, Scalar } from "./values";

/** The pattern a format type takes when it names none: Google's default for the locale. */
function defaultPattern(type: NumberFormat["type"], rules: LocaleRules): string {
  switch (type) {
    case "NUMBER":
      return "#,##0.00";
    case "PERCENT":
      return "0.00%";
    case "SCIENTIFIC":
      return "0.00E+00";
    case "CURRENCY":
      return rules.currency;
    case "DATE":
      return rules.date;
    case "TIME":
      return rules.time;
    case "DATE_TIME":
      return rules.dateTime;
    default:
      return "@";
  }
}

export function withPattern(fmt: NumberFormat | undefined, rules: LocaleRules): NumberFormat | undefined {
  if (!fmt) return undefined;
  return { type: fmt.type, pattern: fmt.pattern || defaultPattern(fmt.type, rules) };
}

/** What a cell shows in the Sheets UI (FORMATTED_VALUE), in the spreadsheet's locale. */
export function formatValue(v: Computed, fmt: NumberFormat | undefined, rules: LocaleRules): string {
  if (v === null) return "";
  if (isError(v)) return v.error;
  if (typeof v === "boolean") return v ? "TRUE" : "FALSE";
  if (typeof v === "string") return v;
  if (!fmt || fmt.type === "TEXT") return formatGeneral(v, rules);
  const pattern = fmt.pattern || defaultPattern(fmt.type, rules);
  if (fmt.type === "DATE" || fmt.type === "TIME" || fmt.type === "DATE_TIME") return formatDateTime(v, pattern, rules);
  return formatNumber(v, pattern, rules);
}

type ExtendedValue =
  | { stringValue: string }
  | { numberValue: number }
  | { boolValue: boolean }
  | { formulaValue: string };

function extended(v: Scalar): ExtendedValue {
  if (typeof v === "number") return { numberValue: v };
  if (typeof v === "boolean") return { boolValue: v };
  return { stringValue: v };
}

/** The CellData object of spreadsheets.get with grid data; `fmt` is the format the cell shows in. */
export function cellData(
  cell: Cell | undefined,
  value: Computed,
  fmt: NumberFormat | undefined,
  rules: LocaleRules,
): Record<string, unknown> {
  if (!cell) return {};
  const shown = withPattern(fmt, rules);
  const out: Record<string, unknown> = {
    userEnteredValue: cell.formula ? { formulaValue: String(cell.value) } : extended(cell.value),
    effectiveValue: isError(value)
      ? { errorValue: { type: value.type, message: value.message } }
      : value === null
        ? undefined
        : extended(value),
    formattedValue: formatValue(value, shown, rules),
  };
  if (out.effectiveValue === undefined) delete out.effectiveValue;
  if (cell.format) out.userEnteredFormat = { numberFormat: withPattern(cell.format, rules) };
  if (shown) out.effectiveFormat = { numberFormat: shown };
  return out;
}
