// Behaviours measured against real Google in recordings/ (replay.test.ts), pinned here one by one
// with the cases around them that the recordings do not reach.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startGoogleEmulator, type GoogleEmulator } from "./server";
import { EMULATOR_SERVICE_ACCOUNT } from "./seed";
import { newServiceAccount, serviceAccountClient } from "./test-support";

const account = newServiceAccount(EMULATOR_SERVICE_ACCOUNT);
const SCOPES = ["https://www.googleapis.com/auth/spreadsheets", "https://www.googleapis.com/auth/drive"];
let emulator: GoogleEmulator;
let token: string;
let id: string;

type Json = Record<string, unknown>;

async function call(method: string, path: string, body?: unknown): Promise<{ status: number; json: Json }> {
  const res = await fetch(`${emulator.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { "content-type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, json: (await res.json()) as Json };
}
const batch = (...requests: Json[]) => call("POST", `/v4/spreadsheets/${id}:batchUpdate`, { requests });
const put = (range: string, values: unknown[][]) =>
  call("PUT", `/v4/spreadsheets/${id}/values/${encodeURIComponent(range)}?valueInputOption=RAW`, { values });
const values = async (range: string) =>
  (await call("GET", `/v4/spreadsheets/${id}/values/${encodeURIComponent(range)}`)).json.values;
const notes = async (range: string) =>
  (
    await call(
      "GET",
      `/v4/spreadsheets/${id}?ranges=${encodeURIComponent(range)}&fields=sheets.data.rowData.values.note`,
    )
  ).json;
const sheetOf = async () => ((await call("GET", `/v4/spreadsheets/${id}`)).json.sheets as Json[])[0]!;
const range = (r0: number, r1: number, c0: number, c1: number) => ({
  sheetId: 0,
  startRowIndex: r0,
  endRowIndex: r1,
  startColumnIndex: c0,
  endColumnIndex: c1,
});

beforeAll(async () => {
  emulator = await startGoogleEmulator({ serviceAccountKeys: [account] });
  token = String((await serviceAccountClient(emulator.url, account, SCOPES).getAccessToken()).token);
});
afterAll(() => emulator.stop());
beforeEach(() => {
  id = emulator.store.add({
    title: "Recorded",
    members: { [EMULATOR_SERVICE_ACCOUNT]: "owner" },
    tabs: [{ title: "Sheet1", rows: [] }],
  }).spreadsheetId;
});

describe("values", () => {
  it("reads a reversed range as the same cells, named top-left first", async () => {
    await put("Sheet1!A1", [
      ["a", "b"],
      ["c", "d"],
    ]);
    const { json } = await call("GET", `/v4/spreadsheets/${id}/values/${encodeURIComponent("Sheet1!B2:A1")}`);
    expect(json).toMatchObject({
      range: "Sheet1!A1:B2",
      values: [
        ["a", "b"],
        ["c", "d"],
      ],
    });
  });

  it("writes a whole block from a one-cell anchor, but not past an explicit range's end", async () => {
    expect(
      (
        await put("Sheet1!B2", [
          [1, 2, 3],
          [4, 5, 6],
        ])
      ).json,
    ).toMatchObject({ updatedRange: "Sheet1!B2:D3", updatedCells: 6 });
    const refused = await put("Sheet1!B2:B2", [[1, 2]]);
    expect(refused.status).toBe(400);
    expect(refused.json.error).toEqual({
      code: 400,
      status: "INVALID_ARGUMENT",
      message: "Requested writing within range [Sheet1!B2:B2], but tried writing to column [C]",
    });
  });

  it("counts only the cells written: nulls are skipped, empty strings are written", async () => {
    const { json } = await put("Sheet1!A1:C3", [
      [null, "x", null],
      [null, null, null],
      ["", null, null],
    ]);
    expect(json).toMatchObject({ updatedRange: "Sheet1!A1:C3", updatedRows: 2, updatedColumns: 2, updatedCells: 2 });
  });

  it("refuses values that are not lists in Google's parser words, with a BadRequest detail and no errors[]", async () => {
    const { status, json } = await call("PUT", `/v4/spreadsheets/${id}/values/A1?valueInputOption=RAW`, {
      values: "A1:D4",
    });
    expect(status).toBe(400);
    const message = `Invalid value at 'data.values' (type.googleapis.com/google.protobuf.ListValue), "A1:D4"`;
    expect(json.error).toEqual({
      code: 400,
      message,
      status: "INVALID_ARGUMENT",
      details: [
        {
          "@type": "type.googleapis.com/google.rpc.BadRequest",
          fieldViolations: [{ field: "data.values", description: message }],
        },
      ],
    });
  });

  it("clears several ranges at once", async () => {
    await put("Sheet1!A1", [
      ["a", "b", "c"],
      ["d", "e", "f"],
    ]);
    const { json } = await call("POST", `/v4/spreadsheets/${id}/values:batchClear`, {
      ranges: ["Sheet1!A1:B1", "Sheet1!C2"],
    });
    expect(json).toEqual({ spreadsheetId: id, clearedRanges: ["Sheet1!A1:B1", "Sheet1!C2"] });
    expect(await values("Sheet1")).toEqual([
      ["", "", "c"],
      ["d", "e"],
    ]);
  });
});

describe("notes", () => {
  it("keeps a note beside a value, through a values.clear, moving with inserted rows; an empty note removes it", async () => {
    await put("Sheet1!A1", [["value"]]);
    await batch({ updateCells: { range: range(0, 1, 1, 2), rows: [{ values: [{ note: "on B1" }] }], fields: "note" } });
    expect(await notes("Sheet1!A1:B1")).toEqual({
      sheets: [{ data: [{ rowData: [{ values: [{}, { note: "on B1" }] }] }] }],
    });
    await call("POST", `/v4/spreadsheets/${id}/values/Sheet1:clear`);
    await batch({ insertDimension: { range: { sheetId: 0, dimension: "ROWS", startIndex: 0, endIndex: 1 } } });
    expect(await notes("Sheet1")).toEqual({
      sheets: [{ data: [{ rowData: [{}, { values: [{}, { note: "on B1" }] }] }] }],
    });
    await batch({ updateCells: { range: range(1, 2, 1, 2), rows: [{ values: [{ note: "" }] }], fields: "note" } });
    expect(await notes("Sheet1")).toEqual({ sheets: [{ data: [{}] }] });
  });
});

describe("grid data", () => {
  it("gives every row's and column's size in the range, and under a field mask only what it names", async () => {
    await put("Sheet1!A1", [["a"]]);
    const full = (
      await call("GET", `/v4/spreadsheets/${id}?includeGridData=True&ranges=${encodeURIComponent("Sheet1!A1:B3")}`)
    ).json;
    const data = ((full.sheets as Json[])[0]!.data as Json[])[0]!;
    expect(data.rowMetadata).toEqual([{ pixelSize: 21 }, { pixelSize: 21 }, { pixelSize: 21 }]);
    expect(data.columnMetadata).toEqual([{ pixelSize: 100 }, { pixelSize: 100 }]);
    expect(
      (await call("GET", `/v4/spreadsheets/${id}?ranges=Sheet1!A1:B3&fields=sheets.data.columnMetadata`)).json,
    ).toEqual({ sheets: [{ data: [{ columnMetadata: [{ pixelSize: 100 }, { pixelSize: 100 }] }] }] });
  });
});

describe("merges", () => {
  it("MERGE_ALL keeps the top-left value; MERGE_ROWS makes one merge a row; unmerge takes every merge inside the range", async () => {
    await put("Sheet1!A1", [
      [1, 2],
      [3, 4],
    ]);
    await batch({ mergeCells: { mergeType: "MERGE_ALL", range: range(0, 2, 0, 2) } });
    // sheetId 0 is left out, as Google leaves out zeros.
    expect((await sheetOf()).merges).toEqual([
      { startRowIndex: 0, endRowIndex: 2, startColumnIndex: 0, endColumnIndex: 2 },
    ]);
    expect(await values("Sheet1")).toEqual([["1"]]);
    await batch({ unmergeCells: { range: range(0, 4, 0, 4) } });
    await batch({ mergeCells: { mergeType: "MERGE_ROWS", range: range(2, 4, 0, 2) } });
    expect((await sheetOf()).merges).toEqual([
      { startRowIndex: 2, endRowIndex: 3, startColumnIndex: 0, endColumnIndex: 2 },
      { startRowIndex: 3, endRowIndex: 4, startColumnIndex: 0, endColumnIndex: 2 },
    ]);
  });

  it("refuses to merge or unmerge part of a merge, and moves merges with inserted and deleted rows", async () => {
    await batch({ mergeCells: { mergeType: "MERGE_ALL", range: range(1, 3, 0, 2) } });
    const partial = await batch({ unmergeCells: { range: range(0, 2, 0, 2) } });
    expect(partial.status).toBe(400);
    expect(String((partial.json.error as Json).message)).toBe(
      "Invalid requests[0].unmergeCells: You must select all cells in a merged range to merge or unmerge them.",
    );
    await batch({ insertDimension: { range: { sheetId: 0, dimension: "ROWS", startIndex: 0, endIndex: 2 } } });
    expect((await sheetOf()).merges).toEqual([
      { startRowIndex: 3, endRowIndex: 5, startColumnIndex: 0, endColumnIndex: 2 },
    ]);
    await batch({ deleteDimension: { range: { sheetId: 0, dimension: "ROWS", startIndex: 3, endIndex: 4 } } });
    // One row of two left: the merge is now a single row of two cells.
    expect((await sheetOf()).merges).toEqual([
      { startRowIndex: 3, endRowIndex: 4, startColumnIndex: 0, endColumnIndex: 2 },
    ]);
  });
});

describe("copyPaste and cutPaste", () => {
  it("copies, repeating the source over a destination that is a multiple of it, and cuts, clearing the source", async () => {
    await put("Sheet1!A1", [["a"], ["b"]]);
    await batch({
      copyPaste: { source: range(0, 2, 0, 1), destination: range(0, 4, 1, 3), pasteType: "PASTE_NORMAL" },
    });
    expect(await values("Sheet1")).toEqual([
      ["a", "a", "a"],
      ["b", "b", "b"],
      ["", "a", "a"],
      ["", "b", "b"],
    ]);
    await batch({
      cutPaste: {
        source: range(0, 2, 0, 1),
        destination: { sheetId: 0, rowIndex: 5, columnIndex: 0 },
        pasteType: "PASTE_NORMAL",
      },
    });
    expect(await values("Sheet1!A1:A7")).toEqual([[], [], [], [], [], ["a"], ["b"]]);
  });

  it("refuses to copy a formula rather than copy it with references unmoved, and writes nothing of the batch", async () => {
    await call("PUT", `/v4/spreadsheets/${id}/values/A1?valueInputOption=USER_ENTERED`, { values: [["=1+1", "x"]] });
    const refused = await batch({ copyPaste: { source: range(0, 1, 0, 2), destination: range(5, 6, 0, 2) } });
    expect(refused.status).toBe(400);
    expect(await values("Sheet1!A6:B6")).toBeUndefined();
  });
});

describe("sheet properties", () => {
  it("resizes a grid (dropping the cells past its new edge), hides a sheet but never the last visible one", async () => {
    await put("Sheet1!A1", [
      ["a", "b"],
      ["c", "d"],
    ]);
    await batch({
      updateSheetProperties: {
        properties: { sheetId: 0, gridProperties: { rowCount: 1, columnCount: 1 } },
        fields: "gridProperties/rowCount,gridProperties/columnCount",
      },
    });
    await batch({
      updateSheetProperties: {
        properties: { sheetId: 0, gridProperties: { rowCount: 5, columnCount: 5 } },
        fields: "gridProperties.rowCount,gridProperties.columnCount",
      },
    });
    expect(await values("Sheet1")).toEqual([["a"]]);
    const alone = await batch({
      updateSheetProperties: { properties: { sheetId: 0, hidden: true }, fields: "hidden" },
    });
    expect(alone.json.error).toEqual({
      code: 400,
      status: "INVALID_ARGUMENT",
      message: "Invalid requests[0].updateSheetProperties: You can't hide all the sheets in a document.",
    });
    const added = await batch({ addSheet: { properties: { title: "Second" } } });
    const second = ((added.json.replies as Json[])[0]!.addSheet as { properties: { sheetId: number } }).properties
      .sheetId;
    await put("Second!A1", [["in second"]]);
    await batch({ updateSheetProperties: { properties: { sheetId: 0, hidden: true }, fields: "hidden" } });
    expect((await sheetOf()).properties).toMatchObject({ hidden: true });
    // Unquoted A1 notation names cells of the first visible sheet.
    expect((await call("GET", `/v4/spreadsheets/${id}/values/A1`)).json).toMatchObject({
      range: "Second!A1",
      values: [["in second"]],
    });
    expect((await batch({ deleteSheet: { sheetId: second } })).status).toBe(200);
    expect((await batch({ deleteSheet: { sheetId: 0 } })).json.error).toMatchObject({
      message: "Invalid requests[0].deleteSheet: You can't remove all the sheets in a document.",
    });
  });

  it("refuses a request kind it does not serve as Google refuses a field it does not know", async () => {
    const { status, json } = await batch({ addFilterView: { filter: {} } });
    expect(status).toBe(400);
    expect((json.error as Json).message).toBe(
      `Invalid JSON payload received. Unknown name "addFilterView" at 'requests[0]': Cannot find field.`,
    );
    expect((json.error as Json).errors).toBeUndefined();
  });
});

describe("Drive files.get", () => {
  it("answers kind, id, name and mimeType without fields, exactly the fields named with them, and 400 for a field Drive lacks", async () => {
    expect((await call("GET", `/drive/v3/files/${id}`)).json).toEqual({
      kind: "drive#file",
      id,
      name: "Recorded",
      mimeType: "application/vnd.google-apps.spreadsheet",
    });
    const { json } = await call(
      "GET",
      `/drive/v3/files/${id}?fields=id,name,createdTime,modifiedTime,capabilities(canEdit)&supportsAllDrives=True`,
    );
    expect(Object.keys(json)).toEqual(["id", "name", "createdTime", "modifiedTime", "capabilities"]);
    expect(json.capabilities).toEqual({ canEdit: true });
    expect(json.createdTime).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    const bad = await call("GET", `/drive/v3/files/${id}?fields=nonsense`);
    expect(bad.status).toBe(400);
    expect(bad.json.error).toEqual({
      code: 400,
      message: "Invalid field selection nonsense",
      errors: [
        {
          message: "Invalid field selection nonsense",
          domain: "global",
          reason: "invalidParameter",
          location: "fields",
          locationType: "parameter",
        },
      ],
    });
  });

  it("keeps errors[] in Drive's error bodies while Sheets sends none", async () => {
    const drive = await call("GET", "/drive/v3/files/1unknownFileId0000000000000");
    expect(drive.json.error).toMatchObject({ code: 404, errors: [{ reason: "notFound" }] });
    const sheets = await call("GET", "/v4/spreadsheets/1unknownFileId0000000000000");
    expect(sheets.json.error).toEqual({ code: 404, message: "Requested entity was not found.", status: "NOT_FOUND" });
  });
});
