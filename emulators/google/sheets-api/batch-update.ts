// spreadsheets.batchUpdate: each request applied in order. The store hands every mutating method
// a copy and keeps it only on success, so a refused request changes nothing.
import { badRequest, unknownField } from "../errors";
import { copyPaste, cutPaste } from "../copy-paste";
import { createDeveloperMetadata, deleteDeveloperMetadata } from "../metadata";
import { mergeCells, unmergeCells } from "../merges";
import { touch, type Spreadsheet } from "../model";
import { type Request, tabById } from "./batch-request";
import { updateCells, pasteData } from "./cell-requests";
import { deleteDimension, insertDimension, appendDimension } from "./dimension-requests";
import { addSheet, updateSpreadsheetProperties, updateSheetProperties, deleteSheet } from "./sheet-requests";

type Json = Record<string, unknown>;

const REQUESTS: Record<string, Request> = {
  mergeCells: (sheet, req, where) => (
    mergeCells(tabById(sheet, ((req.range ?? {}) as Json).sheetId ?? 0, where), req, where),
    {}
  ),
  unmergeCells: (sheet, req, where) => (
    unmergeCells(tabById(sheet, ((req.range ?? {}) as Json).sheetId ?? 0, where), req, where),
    {}
  ),
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
      throw badRequest(
        `Invalid requests[${i}]: ${kinds.length ? "only one kind of request may be set" : "no request was set"}.`,
      );
    }
    const kind = kinds[0]!;
    return REQUESTS[kind]!(sheet, request[kind] as Json, `Invalid requests[${i}].${kind}: `);
  });
  if (replies.length) touch(sheet);
  return { spreadsheetId: sheet.spreadsheetId, replies };
}
