// batchUpdate's requests on tabs and the spreadsheet: addSheet, deleteSheet, and updates of
// their properties.
import { badRequest } from "../errors";
import { ensureRoom } from "../grid-limits";
import type { Tab } from "../model";
import { type Request, tabById } from "./batch-request";
import { sheetProperties } from "./spreadsheet-get";

type Json = Record<string, unknown>;

export const addSheet: Request = (sheet, req, where) => {
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
  if (typeof req.fields !== "string" || req.fields === "")
    throw badRequest(`${where}At least one field must be updated, but 'fields' is empty.`);
  return req.fields.split(",");
}

export const updateSpreadsheetProperties: Request = (sheet, req, where) => {
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

export const updateSheetProperties: Request = (sheet, req, where) => {
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
      if (!Number.isInteger(rows) || rows < 1 || !Number.isInteger(columns) || columns < 1)
        throw badRequest(`${where}A grid must have at least one row and one column.`);
      ensureRoom(sheet, tab, rows, columns, where);
      shrinkGrid(tab, rows, columns);
      tab.rowCount = rows;
      tab.columnCount = columns;
    } else if (field === "gridProperties.hideGridlines") {
      tab.hideGridlines = grid.hideGridlines === true;
    } else if (field === "hidden") {
      if (props.hidden === true && sheet.tabs.every((t) => t === tab || t.hidden))
        throw badRequest(`${where}You can't hide all the sheets in a document.`);
      tab.hidden = props.hidden === true;
    } else if (field === "title") tab.title = String(props.title ?? "");
    else
      throw badRequest(
        `${where}the emulator updates title, hidden and gridProperties (rowCount, columnCount, frozenRowCount, hideGridlines); got ${field}.`,
      );
  }
  return {};
};

export const deleteSheet: Request = (sheet, req, where) => {
  const tab = tabById(sheet, req.sheetId, where);
  if (sheet.tabs.length === 1) throw badRequest(`${where}You can't remove all the sheets in a document.`);
  sheet.tabs.splice(sheet.tabs.indexOf(tab), 1);
  return {};
};
