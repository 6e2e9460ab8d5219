// values.append: rows written after the table the range finds, over what follows it or into
// rows inserted for them.
import { formatRange } from "../a1";
import type { Cell } from "../cells";
import { badRequest } from "../errors";
import { appendTable } from "../append-table";
import { ensureRoom } from "../grid-limits";
import { shiftMerges } from "../merges";
import { shiftNotes } from "../notes";
import { touch, type Spreadsheet } from "../model";
import { resolveRange, isTrue } from "./ranges";
import { readValues } from "./values-get";
import { inputRows, requireInputOption, writeBlock } from "./values-write";

type Json = Record<string, unknown>;

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
  const updates: Json = writeBlock(
    sheet,
    formatRange(tab.title, { startRow: at, endRow: at + 1, startCol, endCol: startCol + 1 }),
    rows,
    input,
  );
  if (isTrue(params.get("includeValuesInResponse")))
    updates.updatedData = readValues(sheet, String(updates.updatedRange));
  const out: Json = { spreadsheetId: sheet.spreadsheetId };
  if (table) out.tableRange = formatRange(tab.title, table);
  out.updates = updates;
  touch(sheet);
  return out;
}
