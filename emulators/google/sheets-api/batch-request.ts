// One request kind of spreadsheets.batchUpdate, and the tab a request names by its sheetId.
import { badRequest } from "../errors";
import type { Spreadsheet, Tab } from "../model";

type Json = Record<string, unknown>;

export type Request = (sheet: Spreadsheet, req: Json, where: string) => Json;

export function tabById(sheet: Spreadsheet, sheetId: unknown, where: string): Tab {
  const tab = sheet.tabs.find((t) => t.sheetId === sheetId);
  if (!tab) throw badRequest(`${where}No grid with id: ${String(sheetId)}`);
  return tab;
}
