// Cell values and number formats, shaped like the Sheets API's CellData.

export type Scalar = string | number | boolean;

export interface NumberFormat {
  type: "NUMBER" | "CURRENCY" | "PERCENT" | "DATE" | "TIME" | "DATE_TIME" | "TEXT";
  pattern?: string;
}

/** One stored cell: what was entered (a formula keeps its text) and its own format, if any. */
export interface Cell {
  value: Scalar;
  formula?: boolean;
  format?: NumberFormat;
}

const DEFAULT_PATTERN: Record<NumberFormat["type"], string> = {
  NUMBER: "#,##0.00",
  CURRENCY: '"$"#,##0.00',
  PERCENT: "0.00%",
  DATE: "yyyy-mm-dd",
  TIME: "hh:mm:ss",
  DATE_TIME: "yyyy-mm-dd hh:mm:ss",
  TEXT: "@",
};

// Sheets counts days from 1899-12-30 (the Lotus 1-2-3 epoch).
const EPOCH_MS = Date.UTC(1899, 11, 30);
const DAY_MS = 86_400_000;

export function serialToDate(serial: number): Date {
  return new Date(EPOCH_MS + Math.round(serial * DAY_MS));
}

export function dateToSerial(date: Date): number {
  return (date.getTime() - EPOCH_MS) / DAY_MS;
}

const pad = (n: number, width = 2) => String(n).padStart(width, "0");

function formatDate(serial: number, pattern: string): string {
  const d = serialToDate(serial);
  // `mm` after an hour is minutes, as in Sheets patterns.
  return pattern.replace(/yyyy|hh|mm|ss|dd|m|d/g, (token, offset: number) => {
    const before = pattern.slice(0, offset);
    switch (token) {
      case "yyyy":
        return String(d.getUTCFullYear());
      case "hh":
        return pad(d.getUTCHours());
      case "mm":
        return /h[^a-z]*$/.test(before) ? pad(d.getUTCMinutes()) : pad(d.getUTCMonth() + 1);
      case "ss":
        return pad(d.getUTCSeconds());
      case "dd":
        return pad(d.getUTCDate());
      case "m":
        return String(d.getUTCMonth() + 1);
      default:
        return String(d.getUTCDate());
    }
  });
}

function formatNumber(value: number, pattern: string): string {
  const percent = pattern.includes("%");
  const prefix = (pattern.match(/^"([^"]*)"/)?.[1] ?? pattern.match(/^([^#0.,"]*)/)?.[1] ?? "").trim();
  const decimals = pattern.match(/\.(0+)/)?.[1]?.length ?? 0;
  const grouping = pattern.includes(",");
  const scaled = percent ? value * 100 : value;
  const body = Math.abs(scaled).toLocaleString("en-US", {
    minimumFractionDigits: decimals,
    maximumFractionDigits: decimals,
    useGrouping: grouping,
  });
  return `${scaled < 0 ? "-" : ""}${prefix}${body}${percent ? "%" : ""}`;
}

/** Sheets' "Automatic" format: up to 10 significant digits, no grouping. */
function formatGeneral(value: number): string {
  return String(Number(value.toPrecision(10)));
}

export function effectiveFormat(cell: Cell | undefined, columnFormat?: NumberFormat): NumberFormat | undefined {
  const fmt = cell?.format ?? columnFormat;
  if (!fmt) return undefined;
  return { type: fmt.type, pattern: fmt.pattern ?? DEFAULT_PATTERN[fmt.type] };
}

/** What the cell shows in the Sheets UI: FORMATTED_VALUE. */
export function formattedValue(cell: Cell, fmt?: NumberFormat): string {
  if (cell.formula) return "#NAME?";
  const v = cell.value;
  if (typeof v === "boolean") return v ? "TRUE" : "FALSE";
  if (typeof v === "string") return v;
  if (!fmt || fmt.type === "TEXT") return formatGeneral(v);
  const pattern = fmt.pattern ?? DEFAULT_PATTERN[fmt.type];
  if (fmt.type === "DATE" || fmt.type === "TIME" || fmt.type === "DATE_TIME") return formatDate(v, pattern);
  return formatNumber(v, pattern);
}

/** UNFORMATTED_VALUE: numbers stay numbers (dates as serial numbers), booleans stay booleans. */
export function unformattedValue(cell: Cell): Scalar {
  return cell.formula ? "#NAME?" : cell.value;
}

type ExtendedValue = { stringValue: string } | { numberValue: number } | { boolValue: boolean } | { formulaValue: string };

function extended(v: Scalar): ExtendedValue {
  if (typeof v === "number") return { numberValue: v };
  if (typeof v === "boolean") return { boolValue: v };
  return { stringValue: v };
}

/** The CellData object of spreadsheets.get with grid data. */
export function cellData(cell: Cell | undefined, columnFormat?: NumberFormat): Record<string, unknown> {
  if (!cell) return {};
  const fmt = effectiveFormat(cell, columnFormat);
  const out: Record<string, unknown> = {
    userEnteredValue: cell.formula ? { formulaValue: String(cell.value) } : extended(cell.value),
    effectiveValue: cell.formula
      ? { errorValue: { type: "NAME", message: "The emulator does not evaluate formulas." } }
      : extended(cell.value),
    formattedValue: formattedValue(cell, fmt),
  };
  if (cell.format) out.userEnteredFormat = { numberFormat: effectiveFormat(cell) };
  if (fmt) out.effectiveFormat = { numberFormat: fmt };
  return out;
}

/** A value written with valueInputOption=RAW: stored exactly as sent, never parsed. */
export function rawCell(v: Scalar): Cell {
  return { value: v };
}

/** A value written with USER_ENTERED: parsed as if typed into the UI. */
export function userEnteredCell(v: Scalar): Cell {
  if (typeof v !== "string") return { value: v };
  if (v.startsWith("=")) return { value: v, formula: true };
  if (v.startsWith("'")) return { value: v.slice(1) };
  const t = v.trim();
  if (/^(true|false)$/i.test(t)) return { value: t.toUpperCase() === "TRUE" };
  if (/^-?\d+(\.\d+)?$/.test(t)) return { value: Number(t) };
  const pct = /^(-?\d+(?:\.\d+)?)%$/.exec(t);
  if (pct) return { value: Number(pct[1]) / 100, format: { type: "PERCENT", pattern: "0%" } };
  const date = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2}))?)?$/.exec(t);
  if (date) {
    const [, y, mo, d, h, mi, s] = date;
    const ms = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h ?? 0), Number(mi ?? 0), Number(s ?? 0));
    return {
      value: dateToSerial(new Date(ms)),
      format: h ? { type: "DATE_TIME", pattern: "yyyy-mm-dd hh:mm:ss" } : { type: "DATE", pattern: "yyyy-mm-dd" },
    };
  }
  return { value: v };
}
