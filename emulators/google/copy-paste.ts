// copyPaste and cutPaste within a spreadsheet: cells (values, own formats, notes) copied or moved
// as the Sheets UI does, repeated to fill a multiple-sized destination. Formulas are refused rather
// than copied wrong: Google rewrites their relative references, which the emulator does not.
import { badRequest } from "./errors";
import { gridRangeOf, type Merge } from "./merges";
import { noteAt, setNote } from "./notes";
import { cellAt, setCell, type Tab } from "./model";
import type { Cell } from "./cells";

type Json = Record<string, unknown>;
interface Piece {
  cell: Cell | null;
  note: string | undefined;
}

const PASTE_TYPES = ["PASTE_NORMAL", "PASTE_VALUES"];

function take(tab: Tab, range: Merge, pasteType: string, where: string): Piece[][] {
  const out: Piece[][] = [];
  for (let r = range.startRowIndex; r < range.endRowIndex; r++) {
    const row: Piece[] = [];
    for (let c = range.startColumnIndex; c < range.endColumnIndex; c++) {
      const cell = cellAt(tab, r, c);
      if (cell?.formula)
        throw badRequest(
          `${where}the emulator does not copy formulas (Google rewrites their references as they move).`,
        );
      const values = pasteType === "PASTE_VALUES";
      row.push({
        cell: cell ? (values ? { value: cell.value } : structuredClone(cell)) : null,
        note: values ? undefined : noteAt(tab, r, c),
      });
    }
    out.push(row);
  }
  return out;
}

function put(tab: Tab, row0: number, col0: number, pieces: Piece[][], pasteType: string, where: string): void {
  const height = pieces.length;
  const width = pieces[0]?.length ?? 0;
  if (row0 + height > tab.rowCount || col0 + width > tab.columnCount) {
    throw badRequest(
      `${where}Range ('${tab.title}'!R${row0 + 1}C${col0 + 1}:R${row0 + height}C${col0 + width}) exceeds grid limits. Max rows: ${tab.rowCount}, max columns: ${tab.columnCount}`,
    );
  }
  pieces.forEach((row, i) =>
    row.forEach((p, j) => {
      setCell(tab, row0 + i, col0 + j, p.cell);
      if (pasteType === "PASTE_NORMAL") setNote(tab, row0 + i, col0 + j, p.note ?? "");
    }),
  );
}

function pasteTypeOf(req: Json, where: string): string {
  const type = String(req.pasteType ?? "PASTE_NORMAL");
  if (!PASTE_TYPES.includes(type))
    throw badRequest(`${where}the emulator pastes with PASTE_NORMAL or PASTE_VALUES; got ${type}.`);
  if ((req.pasteOrientation ?? "NORMAL") !== "NORMAL")
    throw badRequest(`${where}the emulator pastes with pasteOrientation NORMAL only.`);
  return type;
}

export function copyPaste(tabOf: (sheetId: unknown) => Tab, req: Json, where: string): void {
  const type = pasteTypeOf(req, where);
  const sourceRange = (req.source ?? {}) as Json;
  const destinationRange = (req.destination ?? {}) as Json;
  const source = tabOf(sourceRange.sheetId ?? 0);
  const destination = tabOf(destinationRange.sheetId ?? 0);
  const from = gridRangeOf(source, sourceRange, where);
  const to = gridRangeOf(destination, destinationRange, where);
  const pieces = take(source, from, type, where);
  const height = from.endRowIndex - from.startRowIndex;
  const width = from.endColumnIndex - from.startColumnIndex;
  const toHeight = to.endRowIndex - to.startRowIndex;
  const toWidth = to.endColumnIndex - to.startColumnIndex;
  const tiles =
    toHeight % height === 0 && toWidth % width === 0
      ? { down: toHeight / height, across: toWidth / width }
      : { down: 1, across: 1 };
  for (let i = 0; i < tiles.down; i++) {
    for (let j = 0; j < tiles.across; j++)
      put(destination, to.startRowIndex + i * height, to.startColumnIndex + j * width, pieces, type, where);
  }
}

export function cutPaste(tabOf: (sheetId: unknown) => Tab, req: Json, where: string): void {
  const type = pasteTypeOf(req, where);
  const sourceRange = (req.source ?? {}) as Json;
  const at = (req.destination ?? {}) as Json;
  const source = tabOf(sourceRange.sheetId ?? 0);
  const destination = tabOf(at.sheetId ?? 0);
  const from = gridRangeOf(source, sourceRange, where);
  const pieces = take(source, from, "PASTE_NORMAL", where);
  for (let r = from.startRowIndex; r < from.endRowIndex; r++) {
    for (let c = from.startColumnIndex; c < from.endColumnIndex; c++) {
      if (cellAt(source, r, c)) setCell(source, r, c, null);
      setNote(source, r, c, "");
    }
  }
  put(destination, Number(at.rowIndex ?? 0), Number(at.columnIndex ?? 0), pieces, type, where);
}
