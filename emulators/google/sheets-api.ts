// The Sheets API v4 methods the service uses, over the emulator's in-memory spreadsheets.
// Each mutating method works on a copy and returns it, so a failed request changes nothing.
import { formatRange, indexToColumn, parseGrid, RangeParseError, splitRange, type GridRange } from "./a1";
import { cellData, formatValue, rawCell, withPattern, type Cell, type Scalar } from "./cells";
import { badRequest, invalidValue, unknownField, unparsableRange } from "./errors";
import { appendTable } from "./append-table";
import { copyPaste, cutPaste } from "./copy-paste";
import { applyFields, parseFields } from "./fields";
import { Calculator } from "./formulas";
import { ensureRoom } from "./grid-limits";
import { createDeveloperMetadata, deleteDeveloperMetadata, shiftOnDelete, shiftOnInsert } from "./metadata";
import { localeRules, type LocaleRules } from "./locales";
import { mergeCells, mergesOf, shiftMerges, unmergeCells } from "./merges";
import { noteAt, noteExtent, setNote, shiftNotes } from "./notes";
import { cellAt, setCell, touch, usedRowCount, type Spreadsheet, type Tab } from "./model";
import { DEFAULT_FORMAT, DEFAULT_THEME } from "./spreadsheet-defaults";
import { userEnteredCell } from "./user-entered";
import { isError } from "./values";

type Json = Record<string, unknown>;
type Bounds = Required<GridRange>;

export interface ResolvedRange {
  tab: Tab;
  grid: GridRange;
}

export function resolveRange(sheet: Spreadsheet, range: string): ResolvedRange {
  try {
    const { tab: title, cells } = splitRange(range);
    if (title !== undefined) {
      const tab = sheet.tabs.find((t) => t.title === title);
      if (!tab) throw unparsableRange(range);
      return { tab, grid: cells ? parseGrid(cells) : {} };
    }
    // Unquoted A1 notation (`A1`, `B2:C9`, `A:C`, `2:5`) is cells of the first visible sheet, even
    // when a tab has that title (`'A1'` names the tab). Any other bare name is a tab's title
    // when one matches; otherwise cells of the first sheet.
    const bare = cells ?? "";
    const first = sheet.tabs.find((t) => !t.hidden) ?? sheet.tabs[0]!;
    if (/^[A-Za-z]{1,3}\d+$/.test(bare) || bare.includes(":")) return { tab: first, grid: parseGrid(bare) };
    const named = sheet.tabs.find((t) => t.title === bare);
    if (named) return { tab: named, grid: {} };
    return { tab: first, grid: parseGrid(bare) };
  } catch (err) {
    if (err instanceof RangeParseError) throw unparsableRange(range);
    throw err;
  }
}

function bounded(tab: Tab, grid: GridRange): Bounds {
  return {
    startRow: grid.startRow ?? 0,
    endRow: grid.endRow ?? tab.rowCount,
    startCol: grid.startCol ?? 0,
    endCol: grid.endCol ?? tab.columnCount,
  };
}

/** A boolean query parameter: Google reads `true`, `True` and `TRUE` alike. */
export const isTrue = (param: string | null) => param?.toLowerCase() === "true";

const DATE_TYPES = new Set(["DATE", "TIME", "DATE_TIME"]);

/**
 * One cell under valueRenderOption: FORMATTED_VALUE as shown in the spreadsheet's locale,
 * UNFORMATTED_VALUE as computed, FORMULA as entered. Under the last two, dateTimeRenderOption
 * SERIAL_NUMBER (the default) gives dates as serial numbers, FORMATTED_STRING as shown.
 */
function renderCell(calc: Calculator, rules: LocaleRules, tab: Tab, r: number, c: number, option: string, dateTime: string): Scalar | undefined {
  const cell = cellAt(tab, r, c);
  if (!cell) return undefined;
  if (option === "FORMULA" && cell.formula) return String(cell.value);
  const value = calc.value(tab, r, c);
  const fmt = calc.format(tab, r, c);
  if (option === "FORMATTED_VALUE" || isError(value)) return formatValue(value, withPattern(fmt, rules), rules);
  if (typeof value === "number" && dateTime === "FORMATTED_STRING" && fmt && DATE_TYPES.has(fmt.type)) return formatValue(value, withPattern(fmt, rules), rules);
  return value ?? undefined;
}

const RENDER_OPTIONS = ["FORMATTED_VALUE", "UNFORMATTED_VALUE", "FORMULA"];
const DATE_TIME_OPTIONS = ["SERIAL_NUMBER", "FORMATTED_STRING"];

/** A ValueRange with Google's trimming: trailing empty rows and trailing empty cells are left out. */
export function readValues(sheet: Spreadsheet, range: string, render = "FORMATTED_VALUE", major = "ROWS", dateTime = "SERIAL_NUMBER"): Json {
  if (!RENDER_OPTIONS.includes(render)) throw badRequest(`Invalid value at 'value_render_option' (type.googleapis.com/google.apps.sheets.v4.ValueRenderOption), "${render}"`);
  if (!DATE_TIME_OPTIONS.includes(dateTime)) throw badRequest(`Invalid value at 'date_time_render_option' (type.googleapis.com/google.apps.sheets.v4.DateTimeRenderOption), "${dateTime}"`);
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

function checkScalar(v: unknown, where: string): Scalar | null {
  if (v === null || typeof v === "string" || typeof v === "boolean") return v;
  if (typeof v === "number" && Number.isFinite(v)) return v;
  throw badRequest(`Invalid ${where}: ${JSON.stringify(v)} is not a string, number or boolean.`);
}

const LIST_VALUE = "type.googleapis.com/google.protobuf.ListValue";

function inputRows(body: Json, majorDefault = "ROWS"): (Scalar | null)[][] {
  const values = body.values;
  if (values === undefined) return [];
  if (!Array.isArray(values)) throw invalidValue("data.values", LIST_VALUE, values);
  const rows = values.map((row, r) => {
    if (!Array.isArray(row)) throw invalidValue(`data.values[${r}]`, LIST_VALUE, row);
    return row.map((v, c) => checkScalar(v, `values[${r}][${c}]`));
  });
  if ((body.majorDimension ?? majorDefault) === "COLUMNS") {
    const height = Math.max(0, ...rows.map((col) => col.length));
    return Array.from({ length: height }, (_, r) => rows.map((col) => col[r] ?? null));
  }
  return rows;
}

function toCell(sheet: Spreadsheet, v: Scalar, input: string): Cell | null {
  if (v === "") return null;
  return input === "USER_ENTERED" ? userEnteredCell(v, localeRules(sheet.locale), { timeZone: sheet.timeZone }) : rawCell(v);
}

function requireInputOption(option: string | null | undefined): string {
  if (!option || option === "INPUT_VALUE_OPTION_UNSPECIFIED") {
    throw badRequest("'valueInputOption' is required but not specified");
  }
  if (option !== "RAW" && option !== "USER_ENTERED") throw badRequest(`Invalid valueInputOption: ${option}`);
  return option;
}

/**
 * Writes a block at the range's top-left; null cells are skipped, "" clears a cell. A range of one
 * cell is an anchor: the whole block is written from it, as far as it reaches. The counts are of
 * the cells written (nulls skipped), and of the rows and columns holding one.
 */
function writeBlock(sheet: Spreadsheet, range: string, rows: (Scalar | null)[][], input: string): Json {
  const { tab, grid } = resolveRange(sheet, range);
  const b = bounded(tab, grid);
  const width = Math.max(0, ...rows.map((r) => r.length));
  const anchor = !range.slice(range.lastIndexOf("!") + 1).includes(":") && grid.endRow === (grid.startRow ?? 0) + 1 && grid.endCol === (grid.startCol ?? 0) + 1;
  if (!anchor && grid.endCol !== undefined && b.startCol + width > b.endCol) {
    throw badRequest(
      `Requested writing within range [${range}], but tried writing to column [${indexToColumn(b.startCol + width - 1)}]`,
    );
  }
  if (!anchor && grid.endRow !== undefined && b.startRow + rows.length > b.endRow) {
    throw badRequest(`Requested writing within range [${range}], but tried writing to row [${b.startRow + rows.length}]`);
  }
  // Writing past the grid's edge grows it, within the spreadsheet's cell limit.
  ensureRoom(sheet, tab, Math.max(tab.rowCount, b.startRow + rows.length), Math.max(tab.columnCount, b.startCol + width));
  const writtenRows = new Set<number>();
  const writtenColumns = new Set<number>();
  let cells = 0;
  rows.forEach((row, i) =>
    row.forEach((v, j) => {
      if (v === null) return;
      setCell(tab, b.startRow + i, b.startCol + j, toCell(sheet, v, input));
      writtenRows.add(i);
      writtenColumns.add(j);
      cells++;
    }),
  );
  const written = { startRow: b.startRow, endRow: b.startRow + Math.max(rows.length, 1), startCol: b.startCol, endCol: b.startCol + Math.max(width, 1) };
  return {
    spreadsheetId: sheet.spreadsheetId,
    updatedRange: formatRange(tab.title, written),
    updatedRows: writtenRows.size,
    updatedColumns: writtenColumns.size,
    updatedCells: cells,
  };
}

export function updateValues(sheet: Spreadsheet, range: string, body: Json, params: URLSearchParams): Json {
  const input = requireInputOption(params.get("valueInputOption"));
  const out = writeBlock(sheet, range, inputRows(body), input);
  if (isTrue(params.get("includeValuesInResponse"))) {
    out.updatedData = readValues(sheet, String(out.updatedRange), params.get("responseValueRenderOption") ?? undefined);
  }
  touch(sheet);
  return out;
}

export function batchUpdateValues(sheet: Spreadsheet, body: Json): Json {
  const input = requireInputOption(body.valueInputOption as string | undefined);
  const data = Array.isArray(body.data) ? (body.data as Json[]) : [];
  const responses = data.map((d) => {
    if (typeof d.range !== "string") throw badRequest("Invalid data: each entry needs a range.");
    const res = writeBlock(sheet, d.range, inputRows(d), input);
    if (body.includeValuesInResponse === true) res.updatedData = readValues(sheet, String(res.updatedRange));
    return res;
  });
  if (responses.length) touch(sheet);
  const sum = (k: string) => responses.reduce((n, r) => n + Number(r[k] ?? 0), 0);
  return {
    spreadsheetId: sheet.spreadsheetId,
    totalUpdatedRows: sum("updatedRows"),
    totalUpdatedColumns: Math.max(0, ...responses.map((r) => Number(r.updatedColumns ?? 0))),
    totalUpdatedCells: sum("updatedCells"),
    totalUpdatedSheets: new Set(responses.map((r) => String(r.updatedRange).split("!")[0])).size,
    responses,
  };
}

export function appendValues(sheet: Spreadsheet, range: string, body: Json, params: URLSearchParams): Json {
  const input = requireInputOption(params.get("valueInputOption"));
  const insert = params.get("insertDataOption") ?? "OVERWRITE";
  if (insert !== "OVERWRITE" && insert !== "INSERT_ROWS") throw badRequest(`Invalid insertDataOption: ${insert}`);
  const rows = inputRows(body);
  const { tab, grid } = resolveRange(sheet, range);
  const width = Math.max(0, ...rows.map((r) => r.length));
  const table = appendTable(tab, grid);
  const at = table ? table.endRow : (grid.startRow ?? 0);
  const startCol = table ? table.startCol : (grid.startCol ?? 0);
  const grownRows = insert === "INSERT_ROWS" ? tab.rowCount + rows.length : Math.max(tab.rowCount, at + rows.length);
  ensureRoom(sheet, tab, grownRows, Math.max(tab.columnCount, startCol + width));
  if (insert === "INSERT_ROWS") {
    if (at < tab.rows.length) tab.rows.splice(at, 0, ...rows.map(() => [] as (Cell | null)[]));
    shiftNotes(tab, "ROWS", at, rows.length);
    shiftMerges(tab, "ROWS", at, rows.length);
    tab.rowCount += rows.length;
  }
  const updates: Json = writeBlock(sheet, formatRange(tab.title, { startRow: at, endRow: at + 1, startCol, endCol: startCol + 1 }), rows, input);
  if (isTrue(params.get("includeValuesInResponse"))) updates.updatedData = readValues(sheet, String(updates.updatedRange));
  const out: Json = { spreadsheetId: sheet.spreadsheetId };
  if (table) out.tableRange = formatRange(tab.title, table);
  out.updates = updates;
  touch(sheet);
  return out;
}

/** Clears the values of a range (formats and notes stay); answers the range cleared. */
function clearRange(sheet: Spreadsheet, range: string): string {
  const { tab, grid } = resolveRange(sheet, range);
  const b = bounded(tab, grid);
  for (let r = b.startRow; r < Math.min(b.endRow, tab.rows.length); r++) {
    for (let c = b.startCol; c < Math.min(b.endCol, tab.rows[r]?.length ?? 0); c++) tab.rows[r]![c] = null;
  }
  return formatRange(tab.title, b);
}

export function clearValues(sheet: Spreadsheet, range: string): Json {
  const clearedRange = clearRange(sheet, range);
  touch(sheet);
  return { spreadsheetId: sheet.spreadsheetId, clearedRange };
}

export function batchClearValues(sheet: Spreadsheet, body: Json): Json {
  const ranges = Array.isArray(body.ranges) ? body.ranges.map(String) : [];
  const clearedRanges = ranges.map((r) => clearRange(sheet, r));
  if (ranges.length) touch(sheet);
  return { spreadsheetId: sheet.spreadsheetId, clearedRanges };
}

function sheetProperties(tab: Tab, index: number): Json {
  const gridProperties: Json = { rowCount: tab.rowCount, columnCount: tab.columnCount };
  if (tab.frozenRowCount) gridProperties.frozenRowCount = tab.frozenRowCount;
  if (tab.hideGridlines) gridProperties.hideGridlines = true;
  return { sheetId: tab.sheetId, title: tab.title, index, sheetType: "GRID", gridProperties, ...(tab.hidden ? { hidden: true } : {}) };
}

/** Google's default row height and column width, in pixels. */
const ROW_PIXELS = 21;
const COLUMN_PIXELS = 100;

/**
 * GridData for a range: a CellData per cell up to the last one holding a value or a note (a blank
 * cell in between is `{}`), rows up to the last one holding either, and the size of every row and
 * column of the range within the grid.
 */
function gridData(sheet: Spreadsheet, calc: Calculator, tab: Tab, grid: GridRange, dimensions = { rows: true, columns: true }): Json {
  const rules = localeRules(sheet.locale);
  const b = bounded(tab, grid);
  const notes = noteExtent(tab);
  const rowData: Json[] = [];
  const lastRow = Math.min(b.endRow, Math.max(usedRowCount(tab), notes.rows));
  for (let r = b.startRow; r < lastRow; r++) {
    const values: Json[] = [];
    let width = 0;
    const rowEnd = Math.min(b.endCol, Math.max(tab.rows[r]?.length ?? 0, notes.columnsOf(r)));
    for (let c = b.startCol; c < rowEnd; c++) {
      const cell = cellAt(tab, r, c);
      const note = noteAt(tab, r, c);
      const data: Json = cell ? cellData(cell, calc.value(tab, r, c), calc.format(tab, r, c), rules) : {};
      if (note) data.note = note;
      values.push(data);
      if (cell || note) width = values.length;
    }
    values.length = width;
    rowData.push(width ? { values } : {});
  }
  const out: Json = {};
  // Google leaves zero-valued fields out of its JSON.
  if (b.startRow) out.startRow = b.startRow;
  if (b.startCol) out.startColumn = b.startCol;
  out.rowData = rowData;
  const count = (from: number, to: number) => Math.max(0, to - from);
  if (dimensions.rows) out.rowMetadata = Array.from({ length: count(b.startRow, Math.min(b.endRow, tab.rowCount)) }, () => ({ pixelSize: ROW_PIXELS }));
  if (dimensions.columns) out.columnMetadata = Array.from({ length: count(b.startCol, Math.min(b.endCol, tab.columnCount)) }, () => ({ pixelSize: COLUMN_PIXELS }));
  return out;
}

const isEmpty = (v: unknown) => typeof v === "object" && v !== null && Object.keys(v).length === 0;

/**
 * After a field mask, Google drops what is left empty in grid data: cells with no selected field
 * at the end of a row, rows with no cells at the end, and `values` or `rowData` lists left empty.
 * An empty cell or row before a kept one stays as `{}`, holding its place.
 */
function pruneGridData(spreadsheet: Json): void {
  for (const tab of (spreadsheet.sheets as Json[] | undefined) ?? []) {
    for (const data of (tab.data as Json[] | undefined) ?? []) {
      const rows = data.rowData as Json[] | undefined;
      if (!rows) continue;
      for (const row of rows) {
        const values = row.values as unknown[] | undefined;
        if (!values) continue;
        while (values.length && isEmpty(values[values.length - 1])) values.pop();
        if (!values.length) delete row.values;
      }
      while (rows.length && isEmpty(rows[rows.length - 1])) rows.pop();
      if (!rows.length) delete data.rowData;
    }
  }
}

export function getSpreadsheet(sheet: Spreadsheet, params: URLSearchParams, baseUrl: string): Json {
  const fields = params.get("fields");
  const selection = fields === null ? undefined : parseFields(fields);
  // "includeGridData ... is ignored if a field mask was set": the mask alone decides.
  const sheetsSelection = selection?.get("sheets");
  const withGrid = selection ? sheetsSelection === true || (sheetsSelection instanceof Map && sheetsSelection.has("data")) : isTrue(params.get("includeGridData"));
  // Row and column sizes only when they are asked for: a tall tab's grid read stays small.
  const dataSelection = sheetsSelection instanceof Map ? sheetsSelection.get("data") : undefined;
  const dimensions = { rows: !(dataSelection instanceof Map) || dataSelection.has("rowMetadata"), columns: !(dataSelection instanceof Map) || dataSelection.has("columnMetadata") };
  const ranges = params.getAll("ranges").map((r) => resolveRange(sheet, r));
  const tabs = ranges.length ? sheet.tabs.filter((t) => ranges.some((r) => r.tab === t)) : sheet.tabs;
  const calc = new Calculator(sheet);
  const out = {
    spreadsheetId: sheet.spreadsheetId,
    properties: { title: sheet.title, locale: sheet.locale, autoRecalc: "ON_CHANGE", timeZone: sheet.timeZone, defaultFormat: DEFAULT_FORMAT, spreadsheetTheme: DEFAULT_THEME },
    sheets: tabs.map((tab) => {
      const out: Json = { properties: sheetProperties(tab, sheet.tabs.indexOf(tab)) };
      const merges = mergesOf(tab);
      if (merges) out.merges = merges;
      if (withGrid) {
        const own = ranges.filter((r) => r.tab === tab);
        out.data = own.length ? own.map((r) => gridData(sheet, calc, tab, r.grid, dimensions)) : [gridData(sheet, calc, tab, {}, dimensions)];
      }
      return out;
    }),
    spreadsheetUrl: `${baseUrl}/spreadsheets/d/${sheet.spreadsheetId}/edit`,
  };
  if (!selection) return out;
  const masked = applyFields(out, selection) as Json;
  pruneGridData(masked);
  return masked;
}

type Request = (sheet: Spreadsheet, req: Json, where: string) => Json;

function tabById(sheet: Spreadsheet, sheetId: unknown, where: string): Tab {
  const tab = sheet.tabs.find((t) => t.sheetId === sheetId);
  if (!tab) throw badRequest(`${where}No grid with id: ${String(sheetId)}`);
  return tab;
}

function dimensionRange(sheet: Spreadsheet, req: Json, where: string): { tab: Tab; dimension: string; start: number; end: number } {
  const range = (req.range ?? {}) as Json;
  const tab = tabById(sheet, range.sheetId ?? 0, where);
  const start = Number(range.startIndex ?? 0);
  const end = Number(range.endIndex);
  if (!Number.isInteger(start) || !Number.isInteger(end) || start < 0 || end <= start) {
    throw badRequest(`${where}range startIndex must be less than endIndex.`);
  }
  return { tab, dimension: String(range.dimension), start, end };
}

/** Makes room for `n` empty rows at `start` without allocating them (they stay holes). */
function openRows(tab: Tab, start: number, n: number): void {
  if (start >= tab.rows.length) return;
  const tail = tab.rows.slice(start);
  tab.rows.length = start;
  tail.forEach((row, i) => (tab.rows[start + n + i] = row));
}

const deleteDimension: Request = (sheet, req, where) => {
  const { tab, dimension, start, end } = dimensionRange(sheet, req, where);
  if (dimension === "ROWS") {
    if (end > tab.rowCount) throw badRequest(`${where}Range ('${tab.title}'!${start + 1}:${end}) exceeds grid limits. Max rows: ${tab.rowCount}`);
    if (start === 0 && end >= tab.rowCount) throw badRequest(`${where}You can't delete all the rows on the sheet.`);
    const frozen = tab.frozenRowCount ?? 0;
    if (frozen > 0 && start <= frozen && end >= tab.rowCount) throw badRequest(`${where}Sorry, it is not possible to delete all non-frozen rows.`);
    tab.rows.splice(start, end - start);
    shiftNotes(tab, "ROWS", start, start - end);
    shiftMerges(tab, "ROWS", start, start - end);
    tab.rowCount -= end - start;
    if (frozen > start) tab.frozenRowCount = Math.max(start, frozen - (end - start));
  } else if (dimension === "COLUMNS") {
    if (end > tab.columnCount) throw badRequest(`${where}Range exceeds grid limits. Max columns: ${tab.columnCount}`);
    if (start === 0 && end >= tab.columnCount) throw badRequest(`${where}You can't delete all the columns on the sheet.`);
    for (const row of tab.rows) row?.splice(start, end - start);
    shiftNotes(tab, "COLUMNS", start, start - end);
    shiftMerges(tab, "COLUMNS", start, start - end);
    tab.columnCount -= end - start;
  } else throw badRequest(`${where}dimension must be ROWS or COLUMNS.`);
  shiftOnDelete(sheet, tab.sheetId, dimension, start, end);
  return {};
};

const insertDimension: Request = (sheet, req, where) => {
  const { tab, dimension, start, end } = dimensionRange(sheet, req, where);
  const n = end - start;
  if (dimension === "ROWS") {
    if (start > tab.rowCount) throw badRequest(`${where}startIndex is past the end of the grid.`);
    ensureRoom(sheet, tab, tab.rowCount + n, tab.columnCount, where);
    openRows(tab, start, n);
    shiftNotes(tab, "ROWS", start, n);
    shiftMerges(tab, "ROWS", start, n);
    tab.rowCount += n;
  } else if (dimension === "COLUMNS") {
    if (start > tab.columnCount) throw badRequest(`${where}startIndex is past the end of the grid.`);
    ensureRoom(sheet, tab, tab.rowCount, tab.columnCount + n, where);
    for (const row of tab.rows) if (row && start < row.length) row.splice(start, 0, ...Array<Cell | null>(n).fill(null));
    shiftNotes(tab, "COLUMNS", start, n);
    shiftMerges(tab, "COLUMNS", start, n);
    tab.columnCount += n;
  } else throw badRequest(`${where}dimension must be ROWS or COLUMNS.`);
  shiftOnInsert(sheet, tab.sheetId, dimension, start, n);
  return {};
};

const appendDimension: Request = (sheet, req, where) => {
  const tab = tabById(sheet, req.sheetId ?? 0, where);
  const length = Number(req.length);
  if (!Number.isInteger(length) || length <= 0) throw badRequest(`${where}length must be positive.`);
  if (req.dimension === "ROWS") {
    ensureRoom(sheet, tab, tab.rowCount + length, tab.columnCount, where);
    tab.rowCount += length;
  } else if (req.dimension === "COLUMNS") {
    ensureRoom(sheet, tab, tab.rowCount, tab.columnCount + length, where);
    tab.columnCount += length;
  } else throw badRequest(`${where}dimension must be ROWS or COLUMNS.`);
  return {};
};

const addSheet: Request = (sheet, req, where) => {
  const props = (req.properties ?? {}) as Json;
  const title = String(props.title ?? `Sheet${sheet.tabs.length + 1}`);
  if (sheet.tabs.some((t) => t.title === title)) {
    throw badRequest(`${where}A sheet with the name "${title}" already exists. Please enter another name.`);
  }
  const gridProps = (props.gridProperties ?? {}) as Json;
  const rowCount = Number(gridProps.rowCount ?? 1000);
  const columnCount = Number(gridProps.columnCount ?? 26);
  ensureRoom(sheet, undefined, rowCount, columnCount, where);
  const tab: Tab = { sheetId: sheet.nextSheetId++, title, rowCount, columnCount, rows: [], columnFormats: {} };
  sheet.tabs.push(tab);
  return { addSheet: { properties: sheetProperties(tab, sheet.tabs.length - 1) } };
};

/** Reads `fields` of an update request: the properties it names are the ones changed. */
function updatedFields(req: Json, where: string): string[] {
  if (typeof req.fields !== "string" || req.fields === "") throw badRequest(`${where}At least one field must be updated, but 'fields' is empty.`);
  return req.fields.split(",");
}

const updateSpreadsheetProperties: Request = (sheet, req, where) => {
  const props = (req.properties ?? {}) as Json;
  for (const field of updatedFields(req, where)) {
    if (field === "locale" || field === "*") sheet.locale = String(props.locale ?? "en_US");
    else if (field === "timeZone") sheet.timeZone = String(props.timeZone ?? "Etc/UTC");
    else if (field === "title") sheet.title = String(props.title ?? "");
    else throw badRequest(`${where}the emulator updates locale, timeZone and title; got ${field}.`);
  }
  return {};
};

/** Drops the cells past a grid's new edge when it shrinks. */
function shrinkGrid(tab: Tab, rowCount: number, columnCount: number): void {
  if (tab.rows.length > rowCount) tab.rows.length = rowCount;
  for (const row of tab.rows) if (row && row.length > columnCount) row.length = columnCount;
}

const updateSheetProperties: Request = (sheet, req, where) => {
  const props = (req.properties ?? {}) as Json;
  const grid = (props.gridProperties ?? {}) as Json;
  const tab = tabById(sheet, props.sheetId ?? 0, where);
  // Field paths take "." or "/" between names, as Google's field masks do.
  for (const field of updatedFields(req, where).map((f) => f.trim().replace(/\//g, "."))) {
    if (field === "gridProperties.frozenRowCount") {
      const frozen = Number(grid.frozenRowCount ?? 0);
      if (frozen >= tab.rowCount) throw badRequest(`${where}You can't freeze all visible rows on the sheet.`);
      tab.frozenRowCount = frozen;
    } else if (field === "gridProperties.rowCount" || field === "gridProperties.columnCount") {
      const rows = field.endsWith("rowCount") ? Number(grid.rowCount ?? 0) : tab.rowCount;
      const columns = field.endsWith("columnCount") ? Number(grid.columnCount ?? 0) : tab.columnCount;
      if (!Number.isInteger(rows) || rows < 1 || !Number.isInteger(columns) || columns < 1) throw badRequest(`${where}A grid must have at least one row and one column.`);
      ensureRoom(sheet, tab, rows, columns, where);
      shrinkGrid(tab, rows, columns);
      tab.rowCount = rows;
      tab.columnCount = columns;
    } else if (field === "gridProperties.hideGridlines") {
      tab.hideGridlines = grid.hideGridlines === true;
    } else if (field === "hidden") {
      if (props.hidden === true && sheet.tabs.every((t) => t === tab || t.hidden)) throw badRequest(`${where}You can't hide all the sheets in a document.`);
      tab.hidden = props.hidden === true;
    } else if (field === "title") tab.title = String(props.title ?? "");
    else throw badRequest(`${where}the emulator updates title, hidden and gridProperties (rowCount, columnCount, frozenRowCount, hideGridlines); got ${field}.`);
  }
  return {};
};

const deleteSheet: Request = (sheet, req, where) => {
  const tab = tabById(sheet, req.sheetId, where);
  if (sheet.tabs.length === 1) throw badRequest(`${where}You can't remove all the sheets in a document.`);
  sheet.tabs.splice(sheet.tabs.indexOf(tab), 1);
  return {};
};

/** A CellData's userEnteredValue as a stored cell: a stringValue is text, never a formula. */
function enteredCell(data: Json | undefined): Cell | null {
  const v = (data?.userEnteredValue ?? undefined) as Json | undefined;
  if (!v) return null;
  if (typeof v.formulaValue === "string") return { value: v.formulaValue, formula: true };
  if (typeof v.numberValue === "number") return rawCell(v.numberValue);
  if (typeof v.boolValue === "boolean") return rawCell(v.boolValue);
  if (typeof v.stringValue === "string") return v.stringValue === "" ? null : rawCell(v.stringValue);
  return null;
}

/**
 * updateCells: the cells of `rows` written from `start` (only those given) or over `range`
 * (cells of the range not given are cleared), for the fields named. The grid does not grow:
 * writing past its edge is 400, as in Google.
 */
const updateCells: Request = (sheet, req, where) => {
  const fields = String(req.fields ?? "");
  if (!fields) throw badRequest(`${where}At least one field must be updated, but 'fields' is empty.`);
  const named = fields.split(",").map((f) => f.trim());
  const values = fields === "*" || named.includes("userEnteredValue");
  const notes = fields === "*" || named.includes("note");
  const start = req.start as Json | undefined;
  const range = req.range as Json | undefined;
  if (!start === !range) throw badRequest(`${where}exactly one of start or range must be set.`);
  const at = (start ?? range)!;
  const tab = tabById(sheet, at.sheetId ?? 0, where);
  const row0 = Number(start ? start.rowIndex ?? 0 : range!.startRowIndex ?? 0);
  const col0 = Number(start ? start.columnIndex ?? 0 : range!.startColumnIndex ?? 0);
  const rows = Array.isArray(req.rows) ? (req.rows as Json[]) : [];
  const width = Math.max(0, ...rows.map((r) => (Array.isArray(r.values) ? r.values.length : 0)));
  const endRow = range ? Number(range.endRowIndex ?? tab.rowCount) : row0 + rows.length;
  const endCol = range ? Number(range.endColumnIndex ?? tab.columnCount) : col0 + width;
  if (endRow > tab.rowCount || endCol > tab.columnCount) {
    throw badRequest(`${where}Range ('${tab.title}'!R${row0 + 1}C${col0 + 1}:R${endRow}C${endCol}) exceeds grid limits. Max rows: ${tab.rowCount}, max columns: ${tab.columnCount}`);
  }
  if (range) {
    for (let r = row0; r < endRow; r++) {
      for (let c = col0; c < endCol; c++) {
        if (values && cellAt(tab, r, c)) setCell(tab, r, c, null);
        if (notes) setNote(tab, r, c, "");
      }
    }
  }
  rows.forEach((row, i) => {
    const cells = Array.isArray(row.values) ? (row.values as Json[]) : [];
    cells.forEach((cell, j) => {
      if (values) setCell(tab, row0 + i, col0 + j, enteredCell(cell));
      if (notes) setNote(tab, row0 + i, col0 + j, typeof cell?.note === "string" ? cell.note : "");
    });
  });
  return {};
};

/**
 * pasteData: text pasted at `coordinate` as the Sheets UI pastes it, each piece parsed as if typed
 * there (like USER_ENTERED: "=A2*2" is a formula, "42" a number, "2024-01-15" a date); rows split
 * on line breaks, cells on `delimiter`; an empty piece clears its cell. PASTE_NORMAL only, and
 * delimited text only (HTML paste is not emulated, and is refused rather than guessed at). The
 * grid does not grow: pasting past its edge is 400, as updateCells.
 */
const pasteData: Request = (sheet, req, where) => {
  const at = (req.coordinate ?? {}) as Json;
  const tab = tabById(sheet, at.sheetId ?? 0, where);
  if (typeof req.data !== "string") throw badRequest(`${where}data is required.`);
  if (req.html === true) throw badRequest(`${where}the emulator pastes delimited text only, not HTML.`);
  if (req.type !== undefined && req.type !== "PASTE_NORMAL") throw badRequest(`${where}the emulator pastes with type PASTE_NORMAL only; got ${String(req.type)}.`);
  if (typeof req.delimiter !== "string" || req.delimiter === "") throw badRequest(`${where}a delimiter is required for non-HTML data.`);
  const row0 = Number(at.rowIndex ?? 0);
  const col0 = Number(at.columnIndex ?? 0);
  const rows = req.data.split(/\r?\n/).map((line) => line.split(req.delimiter as string));
  const width = Math.max(...rows.map((r) => r.length));
  if (row0 + rows.length > tab.rowCount || col0 + width > tab.columnCount) {
    throw badRequest(`${where}Range ('${tab.title}'!R${row0 + 1}C${col0 + 1}:R${row0 + rows.length}C${col0 + width}) exceeds grid limits. Max rows: ${tab.rowCount}, max columns: ${tab.columnCount}`);
  }
  const rules = localeRules(sheet.locale);
  rows.forEach((cells, i) => cells.forEach((text, j) => setCell(tab, row0 + i, col0 + j, text === "" ? null : userEnteredCell(text, rules, { timeZone: sheet.timeZone }))));
  return {};
};

const REQUESTS: Record<string, Request> = {
  mergeCells: (sheet, req, where) => (mergeCells(tabById(sheet, ((req.range ?? {}) as Json).sheetId ?? 0, where), req, where), {}),
  unmergeCells: (sheet, req, where) => (unmergeCells(tabById(sheet, ((req.range ?? {}) as Json).sheetId ?? 0, where), req, where), {}),
  copyPaste: (sheet, req, where) => (copyPaste((id) => tabById(sheet, id, where), req, where), {}),
  cutPaste: (sheet, req, where) => (cutPaste((id) => tabById(sheet, id, where), req, where), {}),
  pasteData,
  deleteDimension,
  insertDimension,
  appendDimension,
  addSheet,
  updateSpreadsheetProperties,
  updateSheetProperties,
  deleteSheet,
  updateCells,
  createDeveloperMetadata: (sheet, req, where) => createDeveloperMetadata(sheet, req, where),
  deleteDeveloperMetadata: (sheet, req, where) => deleteDeveloperMetadata(sheet, req, where),
};

/** The batchUpdate request kinds the emulator applies; any other is refused as Google refuses a kind it does not know. */
export const SERVED_BATCH_REQUESTS = Object.keys(REQUESTS);

export function batchUpdate(sheet: Spreadsheet, body: Json): Json {
  const requests = Array.isArray(body.requests) ? (body.requests as Json[]) : [];
  const replies = requests.map((request, i) => {
    const kinds = Object.keys(request);
    const unknown = kinds.find((k) => !Object.hasOwn(REQUESTS, k));
    if (unknown) throw unknownField(unknown, `requests[${i}]`);
    if (kinds.length !== 1) {
      throw badRequest(`Invalid requests[${i}]: ${kinds.length ? "only one kind of request may be set" : "no request was set"}.`);
    }
    const kind = kinds[0]!;
    return REQUESTS[kind]!(sheet, request[kind] as Json, `Invalid requests[${i}].${kind}: `);
  });
  if (replies.length) touch(sheet);
  return { spreadsheetId: sheet.spreadsheetId, replies };
}
