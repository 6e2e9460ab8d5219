// values.update and values.batchUpdate: blocks written at their ranges.
import { badRequest } from "../errors";
import { touch, type Spreadsheet } from "../model";
import { isTrue } from "./ranges";
import { readValues } from "./values-get";
import { inputRows, requireInputOption, writeBlock } from "./values-write";

type Json = Record<string, unknown>;

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
