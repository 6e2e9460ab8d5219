// The Sheets API v4 methods the service uses, over the emulator's in-memory spreadsheets.
// Each mutating method works on a copy and returns it, so a failed request changes nothing.
import { formatRange, indexToColumn, parseGrid, RangeParseError, splitRange, type GridRange } from "./a1";
import { cellData, formattedValue, effectiveFormat, rawCell, unformattedValue, userEnteredCell, type Cell, type Scalar } from "./cells";
import { badRequest, unparsableRange } from "./errors";
import { cellAt, columnFormatFor, setCell, touch, usedColumnCount, usedRowCount, type Spreadsheet, type Tab } from "./model";

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
    // A bare name is a tab title when one matches; otherwise cells of the first tab.
    const named = sheet.tabs.find((t) => t.title === cells);
    if (named) return { tab: named, grid: {} };
    return { tab: sheet.tabs[0]!, grid: parseGrid(cells ?? "") };
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

function renderCell(tab: Tab, r: number, c: number, option: string): Scalar | undefined {
  const cell = cellAt(tab, r, c);
  if (!cell) return undefined;
  if (option === "UNFORMATTED_VALUE") return unformattedValue(cell);
  if (option === "FORMULA") return cell.formula ? String(cell.value) : unformattedValue(cell);
  return formattedValue(cell, effectiveFormat(cell, columnFormatFor(tab, r, c)));
}

/** A ValueRange with Google's trimming: trailing empty rows and trailing empty cells are left out. */
export function readValues(sheet: Spreadsheet, range: string, render = "FORMATTED_VALUE", major = "ROWS"): Json {
  const { tab, grid } = resolveRange(sheet, range);
  const b = bounded(tab, grid);
  const rows: Scalar[][] = [];
  const lastRow = Math.min(b.endRow, usedRowCount(tab));
  for (let r = b.startRow; r < lastRow; r++) {
    const row: Scalar[] = [];
    let width = 0;
    for (let c = b.startCol; c < b.endCol && c < (tab.rows[r]?.length ?? 0); c++) {
      const v = renderCell(tab, r, c, render);
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

function inputRows(body: Json, majorDefault = "ROWS"): (Scalar | null)[][] {
  const values = body.values;
  if (values === undefined) return [];
  if (!Array.isArray(values)) throw badRequest("Invalid value at 'data.values': expected a list of lists.");
  const rows = values.map((row, r) => {
    if (!Array.isArray(row)) throw badRequest(`Invalid value at 'data.values[${r}]': expected a list.`);
    return row.map((v, c) => checkScalar(v, `values[${r}][${c}]`));
  });
  if ((body.majorDimension ?? majorDefault) === "COLUMNS") {
    const height = Math.max(0, ...rows.map((col) => col.length));
    return Array.from({ length: height }, (_, r) => rows.map((col) => col[r] ?? null));
  }
  return rows;
}

function toCell(v: Scalar, input: string): Cell | null {
  if (v === "") return null;
  return input === "USER_ENTERED" ? userEnteredCell(v) : rawCell(v);
}

function requireInputOption(option: string | null | undefined): string {
  if (!option || option === "INPUT_VALUE_OPTION_UNSPECIFIED") {
    throw badRequest("'valueInputOption' is required but not specified");
  }
  if (option !== "RAW" && option !== "USER_ENTERED") throw badRequest(`Invalid valueInputOption: ${option}`);
  return option;
}

/** Writes a block at the range's top-left; null cells are skipped, "" clears a cell. */
function writeBlock(sheet: Spreadsheet, range: string, rows: (Scalar | null)[][], input: string): Json {
  const { tab, grid } = resolveRange(sheet, range);
  const b = bounded(tab, grid);
  const width = Math.max(0, ...rows.map((r) => r.length));
  if (grid.endCol !== undefined && b.startCol + width > b.endCol) {
    throw badRequest(
      `Requested writing within range [${range}], but tried writing to column [${indexToColumn(b.startCol + width - 1)}]`,
    );
  }
  if (grid.endRow !== undefined && b.startRow + rows.length > b.endRow) {
    throw badRequest(`Requested writing within range [${range}], but tried writing to row [${b.startRow + rows.length}]`);
  }
  rows.forEach((row, i) =>
    row.forEach((v, j) => {
      if (v !== null) setCell(tab, b.startRow + i, b.startCol + j, toCell(v, input));
    }),
  );
  const written = { startRow: b.startRow, endRow: b.startRow + Math.max(rows.length, 1), startCol: b.startCol, endCol: b.startCol + Math.max(width, 1) };
  return {
    spreadsheetId: sheet.spreadsheetId,
    updatedRange: formatRange(tab.title, written),
    updatedRows: rows.length,
    updatedColumns: width,
    updatedCells: rows.reduce((n, r) => n + r.filter((v) => v !== null).length, 0),
  };
}

export function updateValues(sheet: Spreadsheet, range: string, body: Json, params: URLSearchParams): Json {
  const input = requireInputOption(params.get("valueInputOption"));
  const out = writeBlock(sheet, range, inputRows(body), input);
  if (params.get("includeValuesInResponse") === "true") {
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
  const { tab, grid } = resolveRange(sheet, range);
  const rows = inputRows(body);
  const startCol = grid.startCol ?? 0;
  const used = usedRowCount(tab);
  const usedWidth = usedColumnCount(tab);
  const width = Math.max(0, ...rows.map((r) => r.length));
  const at = used;
  if (insert === "INSERT_ROWS") {
    tab.rows.splice(at, 0, ...rows.map(() => [] as (Cell | null)[]));
    tab.rowCount += rows.length;
  }
  rows.forEach((row, i) =>
    row.forEach((v, j) => setCell(tab, at + i, startCol + j, v === null ? null : toCell(v, input))),
  );
  const updatedRange = formatRange(tab.title, {
    startRow: at,
    endRow: at + Math.max(rows.length, 1),
    startCol,
    endCol: startCol + Math.max(width, 1),
  });
  const updates: Json = {
    spreadsheetId: sheet.spreadsheetId,
    updatedRange,
    updatedRows: rows.length,
    updatedColumns: width,
    updatedCells: rows.reduce((n, r) => n + r.length, 0),
  };
  if (params.get("includeValuesInResponse") === "true") updates.updatedData = readValues(sheet, updatedRange);
  const out: Json = { spreadsheetId: sheet.spreadsheetId, updates };
  if (used > 0) {
    out.tableRange = formatRange(tab.title, { startRow: 0, endRow: used, startCol: 0, endCol: Math.max(usedWidth, 1) });
  }
  touch(sheet);
  return out;
}

export function clearValues(sheet: Spreadsheet, range: string): Json {
  const { tab, grid } = resolveRange(sheet, range);
  const b = bounded(tab, grid);
  for (let r = b.startRow; r < Math.min(b.endRow, tab.rows.length); r++) {
    for (let c = b.startCol; c < Math.min(b.endCol, tab.rows[r]!.length); c++) tab.rows[r]![c] = null;
  }
  touch(sheet);
  return { spreadsheetId: sheet.spreadsheetId, clearedRange: formatRange(tab.title, b) };
}

function sheetProperties(tab: Tab, index: number): Json {
  return {
    sheetId: tab.sheetId,
    title: tab.title,
    index,
    sheetType: "GRID",
    gridProperties: { rowCount: tab.rowCount, columnCount: tab.columnCount },
  };
}

function gridData(tab: Tab, grid: GridRange): Json {
  const b = bounded(tab, grid);
  const rowData: Json[] = [];
  const lastRow = Math.min(b.endRow, usedRowCount(tab));
  for (let r = b.startRow; r < lastRow; r++) {
    const values: Json[] = [];
    let width = 0;
    for (let c = b.startCol; c < b.endCol && c < (tab.rows[r]?.length ?? 0); c++) {
      const cell = cellAt(tab, r, c);
      values.push(cellData(cell, columnFormatFor(tab, r, c)));
      if (cell) width = values.length;
    }
    values.length = width;
    rowData.push(width ? { values } : {});
  }
  const out: Json = { rowData };
  // Google leaves zero-valued fields out of its JSON.
  if (b.startRow) out.startRow = b.startRow;
  if (b.startCol) out.startColumn = b.startCol;
  return out;
}

export function getSpreadsheet(sheet: Spreadsheet, params: URLSearchParams, baseUrl: string): Json {
  const withGrid = params.get("includeGridData") === "true";
  const ranges = params.getAll("ranges").map((r) => resolveRange(sheet, r));
  const tabs = ranges.length ? sheet.tabs.filter((t) => ranges.some((r) => r.tab === t)) : sheet.tabs;
  return {
    spreadsheetId: sheet.spreadsheetId,
    properties: { title: sheet.title, locale: sheet.locale, autoRecalc: "ON_CHANGE", timeZone: sheet.timeZone },
    sheets: tabs.map((tab) => {
      const out: Json = { properties: sheetProperties(tab, sheet.tabs.indexOf(tab)) };
      if (withGrid) {
        const own = ranges.filter((r) => r.tab === tab);
        out.data = own.length ? own.map((r) => gridData(tab, r.grid)) : [gridData(tab, {})];
      }
      return out;
    }),
    spreadsheetUrl: `${baseUrl}/spreadsheets/d/${sheet.spreadsheetId}/edit`,
  };
}

function tabById(sheet: Spreadsheet, sheetId: unknown): Tab {
  const tab = sheet.tabs.find((t) => t.sheetId === sheetId);
  if (!tab) throw badRequest(`Invalid requests[0]: No grid with id: ${String(sheetId)}`);
  return tab;
}

function dimensionRange(sheet: Spreadsheet, req: Json): { tab: Tab; dimension: string; start: number; end: number } {
  const range = (req.range ?? {}) as Json;
  const tab = tabById(sheet, range.sheetId ?? 0);
  const start = Number(range.startIndex ?? 0);
  const end = Number(range.endIndex);
  if (!Number.isInteger(start) || !Number.isInteger(end) || start < 0 || end <= start) {
    throw badRequest("Invalid requests: range startIndex must be less than endIndex.");
  }
  return { tab, dimension: String(range.dimension), start, end };
}

function deleteDimension(sheet: Spreadsheet, req: Json): Json {
  const { tab, dimension, start, end } = dimensionRange(sheet, req);
  if (dimension === "ROWS") {
    if (end > tab.rowCount) throw badRequest(`Invalid requests[0].deleteDimension: Range ('${tab.title}'!${start + 1}:${end}) exceeds grid limits. Max rows: ${tab.rowCount}`);
    tab.rows.splice(start, end - start);
    tab.rowCount -= end - start;
  } else if (dimension === "COLUMNS") {
    for (const row of tab.rows) row.splice(start, end - start);
    tab.columnCount -= end - start;
  } else throw badRequest("Invalid requests[0].deleteDimension: dimension must be ROWS or COLUMNS.");
  return {};
}

function insertDimension(sheet: Spreadsheet, req: Json): Json {
  const { tab, dimension, start, end } = dimensionRange(sheet, req);
  const n = end - start;
  if (dimension === "ROWS") {
    if (start > tab.rowCount) throw badRequest("Invalid requests[0].insertDimension: startIndex is past the end of the grid.");
    if (start < tab.rows.length) tab.rows.splice(start, 0, ...Array.from({ length: n }, () => [] as (Cell | null)[]));
    tab.rowCount += n;
  } else if (dimension === "COLUMNS") {
    for (const row of tab.rows) if (start < row.length) row.splice(start, 0, ...Array<Cell | null>(n).fill(null));
    tab.columnCount += n;
  } else throw badRequest("Invalid requests[0].insertDimension: dimension must be ROWS or COLUMNS.");
  return {};
}

function addSheet(sheet: Spreadsheet, req: Json): Json {
  const props = (req.properties ?? {}) as Json;
  const title = String(props.title ?? `Sheet${sheet.tabs.length + 1}`);
  if (sheet.tabs.some((t) => t.title === title)) {
    throw badRequest(`Invalid requests[0].addSheet: A sheet with the name "${title}" already exists. Please enter another name.`);
  }
  const tab: Tab = { sheetId: sheet.nextSheetId++, title, rowCount: 1000, columnCount: 26, rows: [], columnFormats: {} };
  sheet.tabs.push(tab);
  return { addSheet: { properties: sheetProperties(tab, sheet.tabs.length - 1) } };
}

const REQUESTS: Record<string, (sheet: Spreadsheet, req: Json) => Json> = { deleteDimension, insertDimension, addSheet };

export function batchUpdate(sheet: Spreadsheet, body: Json): Json {
  const requests = Array.isArray(body.requests) ? (body.requests as Json[]) : [];
  const replies = requests.map((request, i) => {
    const [kind, ...others] = Object.keys(request);
    const handler = kind ? REQUESTS[kind] : undefined;
    if (!handler || others.length) {
      throw badRequest(`Invalid requests[${i}]: the emulator supports ${Object.keys(REQUESTS).join(", ")}; got ${Object.keys(request).join(", ") || "nothing"}.`);
    }
    return handler(sheet, request[kind!] as Json);
  });
  if (replies.length) touch(sheet);
  return { spreadsheetId: sheet.spreadsheetId, replies };
}
