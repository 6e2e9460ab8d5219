// values.get: a range's values as rendered, trimmed as Google trims them.
import { formatRange } from "../a1";
import { formatValue, withPattern, type Scalar } from "../cells";
import { badRequest } from "../errors";
import { Calculator } from "../formulas";
import { localeRules, type LocaleRules } from "../locales";
import { cellAt, usedRowCount, type Spreadsheet, type Tab } from "../model";
import { isError } from "../values";
import { resolveRange, bounded } from "./ranges";

type Json = Record<string, unknown>;

const DATE_TYPES = new Set(["DATE", "TIME", "DATE_TIME"]);

/**
 * One cell under valueRenderOption: FORMATTED_VALUE as shown in the spreadsheet's locale,
 * UNFORMATTED_VALUE as computed, FORMULA as entered. Under the last two, dateTimeRenderOption
 * SERIAL_NUMBER (the default) gives dates as serial numbers, FORMATTED_STRING as shown.
 */
function renderCell(
  calc: Calculator,
  rules: LocaleRules,
  tab: Tab,
  r: number,
  c: number,
  option: string,
  dateTime: string,
): Scalar | undefined {
  const cell = cellAt(tab, r, c);
  if (!cell) return undefined;
  if (option === "FORMULA" && cell.formula) return String(cell.value);
  const value = calc.value(tab, r, c);
  const fmt = calc.format(tab, r, c);
  if (option === "FORMATTED_VALUE" || isError(value)) return formatValue(value, withPattern(fmt, rules), rules);
  if (typeof value === "number" && dateTime === "FORMATTED_STRING" && fmt && DATE_TYPES.has(fmt.type))
    return formatValue(value, withPattern(fmt, rules), rules);
  return value ?? undefined;
}

const RENDER_OPTIONS = ["FORMATTED_VALUE", "UNFORMATTED_VALUE", "FORMULA"];
const DATE_TIME_OPTIONS = ["SERIAL_NUMBER", "FORMATTED_STRING"];

/** A ValueRange with Google's trimming: trailing empty rows and trailing empty cells are left out. */
export function readValues(
  sheet: Spreadsheet,
  range: string,
  render = "FORMATTED_VALUE",
  major = "ROWS",
  dateTime = "SERIAL_NUMBER",
): Json {
  if (!RENDER_OPTIONS.includes(render))
    throw badRequest(
      `Invalid value at 'value_render_option' (type.googleapis.com/google.apps.sheets.v4.ValueRenderOption), "${render}"`,
    );
  if (!DATE_TIME_OPTIONS.includes(dateTime))
    throw badRequest(
      `Invalid value at 'date_time_render_option' (type.googleapis.com/google.apps.sheets.v4.DateTimeRenderOption), "${dateTime}"`,
    );
  const { tab, grid } = resolveRange(sheet, range);
  const b = bounded(tab, grid);
  const calc = new Calculator(sheet);
  const rules = localeRules(sheet.locale);
  const rows: Scalar[][] = [];
  const lastRow = Math.min(b.endRow, usedRowCount(tab));
  for (let r = b.startRow; r < lastRow; r++) {
    const row: Scalar[] = [];
    let width = 0;
    for (let c = b.startCol; c < b.endCol && c < (tab.rows[r]?.length ?? 0); c++) {
      const v = renderCell(calc, rules, tab, r, c, render, dateTime);
      row.push(v ?? "");
      if (v !== undefined) width = row.length;
    }
    row.length = width;
    rows.push(row);
  }
  while (rows.length && rows[rows.length - 1]!.length === 0) rows.pop();
  let values: Scalar[][] = rows;
  if (major === "COLUMNS") {
    const width = Math.max(0, ...rows.map((r) => r.length));
    values = Array.from({ length: width }, (_, c) => rows.map((r) => r[c] ?? ""));
  }
  const out: Json = { range: formatRange(tab.title, b), majorDimension: major };
  if (values.length) out.values = values;
  return out;
}
