// Drives the real googleapis clients against emulators/google, one test per Sheets call we use.
import { sheets, type sheets_v4 } from "@googleapis/sheets";
import { drive } from "@googleapis/drive";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startGoogleEmulator, type GoogleEmulator } from "./server";
import { DEMO_SPREADSHEET_ID, EMULATOR_API_KEY, EMULATOR_SERVICE_ACCOUNT, NO_ACCESS_SPREADSHEET_ID } from "./seed";
import { newServiceAccount, serviceAccountClient } from "./test-support";

let emulator: GoogleEmulator;
let client: sheets_v4.Sheets;
let anonymous: sheets_v4.Sheets;

const account = newServiceAccount(EMULATOR_SERVICE_ACCOUNT);
const SCOPES = [
  "https://www.googleapis.com/auth/spreadsheets",
  "https://www.googleapis.com/auth/drive.metadata.readonly",
];
const serviceAccountAuth = () => serviceAccountClient(emulator.url, account, SCOPES);

async function googleError(
  promise: Promise<unknown>,
): Promise<{ status: number; body: { error: { code: number; status: string; message: string } } }> {
  try {
    await promise;
  } catch (err) {
    const e = err as {
      status: number;
      response: { data: { error: { code: number; status: string; message: string } } };
    };
    return { status: e.status, body: e.response.data };
  }
  throw new Error("expected the call to fail");
}

beforeAll(async () => {
  emulator = await startGoogleEmulator({ serviceAccountKeys: [account] });
  client = sheets({ version: "v4", auth: serviceAccountAuth(), rootUrl: `${emulator.url}/`, retry: false });
  anonymous = sheets({ version: "v4", auth: EMULATOR_API_KEY, rootUrl: `${emulator.url}/` });
});
afterAll(() => emulator.stop());
beforeEach(() => {
  emulator.store.reset();
  emulator.faults.clear();
});

const id = DEMO_SPREADSHEET_ID;

describe("spreadsheets.get", () => {
  it("returns properties and tabs", async () => {
    const { data } = await client.spreadsheets.get({ spreadsheetId: id });
    expect(data.properties?.title).toBe("Acme Store");
    expect(data.sheets?.map((s) => s.properties?.title)).toEqual(["Products", "Team Members", "Orders"]);
    expect(data.sheets?.[0]?.properties?.gridProperties?.rowCount).toBe(1000);
    expect(data.sheets?.[0]?.data).toBeUndefined();
  });

  it("returns grid data with effective values and number formats for the requested ranges", async () => {
    const { data } = await client.spreadsheets.get({
      spreadsheetId: id,
      includeGridData: true,
      ranges: ["'Products'!A1:G3"],
    });
    expect(data.sheets).toHaveLength(1);
    const rows = data.sheets![0]!.data![0]!.rowData!;
    expect(rows).toHaveLength(3);
    const price = rows[1]!.values![2]!;
    expect(price.effectiveValue).toEqual({ numberValue: 24.5 });
    expect(price.formattedValue).toBe("$24.50");
    expect(price.effectiveFormat?.numberFormat?.type).toBe("CURRENCY");
    expect(rows[1]!.values![3]!.effectiveValue).toEqual({ boolValue: true });
    expect(rows[1]!.values![4]!.formattedValue).toBe("2024-01-01");
    expect(rows[1]!.values![4]!.effectiveFormat?.numberFormat?.type).toBe("DATE");
    expect(rows[2]!.values![6]).toBeUndefined(); // trailing empty cell is left out
  });
});

describe("values.get", () => {
  it("reads a tab with a quoted, spaced name as formatted strings, trimming empty cells", async () => {
    const { data } = await client.spreadsheets.values.get({ spreadsheetId: id, range: "'Team Members'" });
    expect(data.range).toBe("'Team Members'!A1:Z1000");
    expect(data.values?.[0]).toEqual(["name", "email", "role", "start_date", "active"]);
    expect(data.values?.[1]).toEqual(["Ada Lovelace", "ada@example.com", "Engineering", "2023-01-01", "TRUE"]);
    expect(data.values?.[3]).toEqual([]); // the blank row
    expect(data.values?.[5]).toEqual(["Alan Turing", "", "Research", "", "TRUE"]);
  });

  it("reads unformatted values and bounded ranges", async () => {
    const { data } = await client.spreadsheets.values.get({
      spreadsheetId: id,
      range: "Products!A2:C3",
      valueRenderOption: "UNFORMATTED_VALUE",
    });
    expect(data.values).toEqual([
      [1, "Desk lamp", 24.5],
      [2, "Standing desk", 399],
    ]);
  });

  it("reads unquoted A1 notation as cells of the first sheet, even beside a tab of that name; quoted, the tab", async () => {
    emulator.store.mutate(id, (s) => {
      s.tabs.push({ ...s.tabs[0]!, sheetId: 777, title: "A1", rows: [[{ value: "tab A1" }]] });
    });
    const cell = (await client.spreadsheets.values.get({ spreadsheetId: id, range: "A1" })).data;
    expect([cell.range, cell.values]).toEqual(["Products!A1", [["id"]]]);
    const tab = (await client.spreadsheets.values.get({ spreadsheetId: id, range: "'A1'" })).data;
    expect(tab.values).toEqual([["tab A1"]]);
    expect((await client.spreadsheets.values.get({ spreadsheetId: id, range: "B1:C1" })).data.values).toEqual([
      ["name", "price"],
    ]);
    expect((await client.spreadsheets.values.get({ spreadsheetId: id, range: "'A1'!A1" })).data.values).toEqual([
      ["tab A1"],
    ]);
  });

  it("is readable with an API key when the sheet is public", async () => {
    const { data } = await anonymous.spreadsheets.values.get({ spreadsheetId: id, range: "Products!A1:B1" });
    expect(data.values).toEqual([["id", "name"]]);
  });

  it("answers Google's errors: unknown tab, unknown spreadsheet, no permission", async () => {
    const badRange = await googleError(client.spreadsheets.values.get({ spreadsheetId: id, range: "Nope!A1" }));
    expect(badRange.status).toBe(400);
    expect(badRange.body.error).toMatchObject({
      code: 400,
      status: "INVALID_ARGUMENT",
      message: "Unable to parse range: Nope!A1",
    });
    const missing = await googleError(client.spreadsheets.values.get({ spreadsheetId: "1nope", range: "A1" }));
    expect(missing.body.error).toMatchObject({ code: 404, status: "NOT_FOUND" });
    const denied = await googleError(
      client.spreadsheets.values.get({ spreadsheetId: NO_ACCESS_SPREADSHEET_ID, range: "A1" }),
    );
    expect(denied.body.error).toMatchObject({ code: 403, status: "PERMISSION_DENIED" });
  });

  it("refuses writes made with an API key", async () => {
    const res = await googleError(
      anonymous.spreadsheets.values.update({
        spreadsheetId: id,
        range: "Products!A9",
        valueInputOption: "RAW",
        requestBody: { values: [["x"]] },
      }),
    );
    expect(res.status).toBe(401);
  });
});

describe("values.batchGet", () => {
  it("reads several tabs in one call", async () => {
    const { data } = await client.spreadsheets.values.batchGet({
      spreadsheetId: id,
      ranges: ["Products!A1:A2", "'Team Members'!A1:A2"],
    });
    expect(data.valueRanges?.map((r) => r.values)).toEqual([
      [["id"], ["1"]],
      [["name"], ["Ada Lovelace"]],
    ]);
  });
});

describe("values.append", () => {
  it("appends after the table with INSERT_ROWS and RAW values, never evaluating formulas", async () => {
    const { data } = await client.spreadsheets.values.append({
      spreadsheetId: id,
      range: "Products",
      valueInputOption: "RAW",
      insertDataOption: "INSERT_ROWS",
      requestBody: { values: [[7, "Shelf", 10, true, "", null, '=IMPORTXML("http://x")']] },
    });
    expect(data.tableRange).toBe("Products!A1:G7");
    expect(data.updates?.updatedRange).toBe("Products!A8:G8");
    expect(data.updates?.updatedRows).toBe(1);
    const raw = await client.spreadsheets.get({ spreadsheetId: id, includeGridData: true, ranges: ["Products!G8"] });
    expect(raw.data.sheets![0]!.data![0]!.rowData![0]!.values![0]!.userEnteredValue).toEqual({
      stringValue: '=IMPORTXML("http://x")',
    });
  });

  it("from a cell, extends the table around it: a blank row ends it, and rows land after it (INSERT_ROWS inserts there)", async () => {
    const insert = await client.spreadsheets.values.append({
      spreadsheetId: id,
      range: "'Team Members'!A1",
      valueInputOption: "RAW",
      insertDataOption: "INSERT_ROWS",
      requestBody: { values: [["Hedy Lamarr", "hedy@example.com"]] },
    });
    expect(insert.data.tableRange).toBe("'Team Members'!A1:E3");
    expect(insert.data.updates?.updatedRange).toBe("'Team Members'!A4:B4");
    const names = async () =>
      (await client.spreadsheets.values.get({ spreadsheetId: id, range: "'Team Members'!A1:A9" })).data.values;
    // Inserted above the blank row: the block below it moved down one row.
    expect(await names()).toEqual([
      ["name"],
      ["Ada Lovelace"],
      ["Grace Hopper"],
      ["Hedy Lamarr"],
      [],
      ["Katherine Johnson"],
      ["Alan Turing"],
    ]);
    // Into the whole tab, the table is the last block: OVERWRITE writes the row after it.
    const overwrite = await client.spreadsheets.values.append({
      spreadsheetId: id,
      range: "'Team Members'",
      valueInputOption: "RAW",
      requestBody: { values: [["Mary Jackson"]] },
    });
    expect(overwrite.data.tableRange).toBe("'Team Members'!A6:E7");
    expect(overwrite.data.updates?.updatedRange).toBe("'Team Members'!A8");
    expect(await names()).toEqual([
      ["name"],
      ["Ada Lovelace"],
      ["Grace Hopper"],
      ["Hedy Lamarr"],
      [],
      ["Katherine Johnson"],
      ["Alan Turing"],
      ["Mary Jackson"],
    ]);
  });

  it("at a blank cell, writes there and names no table; a blank column ends a table sideways", async () => {
    const spreadsheetId = emulator.store.add({
      title: "Blank A1",
      members: { [EMULATOR_SERVICE_ACCOUNT]: "writer" },
      tabs: [
        {
          title: "T",
          rows: [
            [null, "b"],
            ["x", "y"],
          ],
        },
      ],
    }).spreadsheetId;
    const append = (range: string, values: (string | null)[][]) =>
      client.spreadsheets.values.append({ spreadsheetId, range, valueInputOption: "RAW", requestBody: { values } });
    const blank = await append("T!A1", [["new", "row"]]);
    expect(blank.data.tableRange).toBeUndefined();
    expect(blank.data.updates).toMatchObject({
      updatedRange: "T!A1:B1",
      updatedRows: 1,
      updatedColumns: 2,
      updatedCells: 2,
    });
    expect((await client.spreadsheets.values.get({ spreadsheetId, range: "T" })).data.values).toEqual([
      ["new", "row"],
      ["x", "y"],
    ]);

    await client.spreadsheets.values.update({
      spreadsheetId,
      range: "T!A1",
      valueInputOption: "RAW",
      requestBody: {
        values: [
          ["p", "", "q"],
          ["", "", ""],
        ],
      },
    });
    await client.spreadsheets.values.clear({ spreadsheetId, range: "T!A2:C9" });
    // `p | blank | q`: the table from A1 is A1 alone; nulls are not written nor counted.
    const sideways = await append("T!A1", [["r", null, "s"]]);
    expect(sideways.data.tableRange).toBe("T!A1");
    expect(sideways.data.updates).toMatchObject({
      updatedRange: "T!A2:C2",
      updatedRows: 1,
      updatedColumns: 2,
      updatedCells: 2,
    });
  });

  it("requires valueInputOption", async () => {
    const res = await googleError(
      client.spreadsheets.values.append({ spreadsheetId: id, range: "Products", requestBody: { values: [["x"]] } }),
    );
    expect(res.body.error.message).toContain("valueInputOption");
  });
});

describe("values.update and values.batchUpdate", () => {
  it("writes one block and refuses to write outside the range", async () => {
    const { data } = await client.spreadsheets.values.update({
      spreadsheetId: id,
      range: "Products!B2",
      valueInputOption: "RAW",
      requestBody: { values: [["Desk lamp XL"]] },
    });
    expect(data).toMatchObject({ updatedRange: "Products!B2", updatedCells: 1 });
    const outside = await googleError(
      client.spreadsheets.values.update({
        spreadsheetId: id,
        range: "Products!B2:B2",
        valueInputOption: "RAW",
        requestBody: { values: [["a", "b"]] },
      }),
    );
    expect(outside.status).toBe(400);
  });

  it("refuses a cell longer than 50,000 characters, and writes nothing of that request", async () => {
    const long = await googleError(
      client.spreadsheets.values.update({
        spreadsheetId: id,
        range: "Products!B4:C4",
        valueInputOption: "RAW",
        requestBody: { values: [["Short", "y".repeat(50_001)]] },
      }),
    );
    expect(long.status).toBe(400);
    expect(long.body.error).toMatchObject({
      status: "INVALID_ARGUMENT",
      message: "Your input contains more than the maximum of 50000 characters in a single cell.",
    });
    expect(
      (await client.spreadsheets.values.get({ spreadsheetId: id, range: "Products!B4" })).data.values?.[0]?.[0],
    ).not.toBe("Short");
    const fits = await client.spreadsheets.values.update({
      spreadsheetId: id,
      range: "Products!H4",
      valueInputOption: "RAW",
      requestBody: { values: [["z".repeat(50_000)]] },
    });
    expect(fits.data.updatedCells).toBe(1);
  });

  it("writes several ranges at once, atomically", async () => {
    const { data } = await client.spreadsheets.values.batchUpdate({
      spreadsheetId: id,
      requestBody: {
        valueInputOption: "RAW",
        data: [
          { range: "Products!B3", values: [["Desk"]] },
          { range: "Products!F3", values: [[5]] },
        ],
      },
    });
    expect(data.totalUpdatedCells).toBe(2);
    const bad = await googleError(
      client.spreadsheets.values.batchUpdate({
        spreadsheetId: id,
        requestBody: {
          valueInputOption: "RAW",
          data: [
            { range: "Products!B3", values: [["Changed"]] },
            { range: "Missing!A1", values: [[1]] },
          ],
        },
      }),
    );
    expect(bad.status).toBe(400);
    const after = await client.spreadsheets.values.get({ spreadsheetId: id, range: "Products!B3" });
    expect(after.data.values).toEqual([["Desk"]]);
  });
});

describe("spreadsheets.batchUpdate", () => {
  it("deletes and inserts rows", async () => {
    await client.spreadsheets.batchUpdate({
      spreadsheetId: id,
      requestBody: {
        requests: [{ deleteDimension: { range: { sheetId: 0, dimension: "ROWS", startIndex: 1, endIndex: 2 } } }],
      },
    });
    let rows = await client.spreadsheets.values.get({ spreadsheetId: id, range: "Products!A1:A3" });
    expect(rows.data.values).toEqual([["id"], ["2"], ["3"]]);
    await client.spreadsheets.batchUpdate({
      spreadsheetId: id,
      requestBody: {
        requests: [{ insertDimension: { range: { sheetId: 0, dimension: "ROWS", startIndex: 1, endIndex: 2 } } }],
      },
    });
    rows = await client.spreadsheets.values.get({ spreadsheetId: id, range: "Products!A1:A3" });
    expect(rows.data.values).toEqual([["id"], [], ["2"]]);
  });

  it("returns the spreadsheet after the batch when includeSpreadsheetInResponse is set, limited to responseRanges", async () => {
    const update = {
      updateCells: {
        start: { sheetId: 0, rowIndex: 1, columnIndex: 2 },
        rows: [{ values: [{ userEnteredValue: { numberValue: 5 } }] }],
        fields: "userEnteredValue",
      },
    };
    const plain = await client.spreadsheets.batchUpdate({ spreadsheetId: id, requestBody: { requests: [update] } });
    expect(plain.data.updatedSpreadsheet).toBeUndefined();
    const { data } = await client.spreadsheets.batchUpdate({
      spreadsheetId: id,
      requestBody: {
        requests: [update],
        includeSpreadsheetInResponse: true,
        responseRanges: ["Products!2:2"],
        responseIncludeGridData: true,
      },
    });
    expect(data.updatedSpreadsheet!.sheets).toHaveLength(1);
    const cells = data.updatedSpreadsheet!.sheets![0]!.data![0]!.rowData![0]!.values!;
    expect(cells[2]).toMatchObject({ formattedValue: "$5.00", effectiveValue: { numberValue: 5 } });
    // Without responseIncludeGridData, only the properties.
    const bare = await client.spreadsheets.batchUpdate({
      spreadsheetId: id,
      requestBody: { requests: [update], includeSpreadsheetInResponse: true },
    });
    expect(bare.data.updatedSpreadsheet!.sheets![0]!.data).toBeUndefined();
  });
});

describe("pasteData", () => {
  const paste = (data: string, extra: Record<string, unknown> = {}) => ({
    pasteData: {
      coordinate: { sheetId: 0, rowIndex: 1, columnIndex: 1 },
      data,
      delimiter: "\t",
      type: "PASTE_NORMAL",
      ...extra,
    },
  });
  const formulas = async (range: string) =>
    (await client.spreadsheets.values.get({ spreadsheetId: id, range, valueRenderOption: "FORMULA" })).data.values;

  it("enters each pasted piece as if typed: formulas, numbers, dates, booleans; a stringValue stays text", async () => {
    await client.spreadsheets.batchUpdate({
      spreadsheetId: id,
      requestBody: { requests: [paste("=2*21\t42\t2024-01-15\tTRUE")] },
    });
    expect(await formulas("Products!B2:E2")).toEqual([["=2*21", 42, 45306, true]]);
    const shown = await client.spreadsheets.values.get({ spreadsheetId: id, range: "Products!B2:E2" });
    expect(shown.data.values).toEqual([["42", "$42.00", "2024-01-15", "TRUE"]]);
    await client.spreadsheets.batchUpdate({
      spreadsheetId: id,
      requestBody: {
        requests: [
          {
            updateCells: {
              start: { sheetId: 0, rowIndex: 1, columnIndex: 1 },
              rows: [{ values: [{ userEnteredValue: { stringValue: "=2*21" } }] }],
              fields: "userEnteredValue",
            },
          },
        ],
      },
    });
    expect(await formulas("Products!B2")).toEqual([["=2*21"]]);
    expect((await client.spreadsheets.values.get({ spreadsheetId: id, range: "Products!B2" })).data.values).toEqual([
      ["=2*21"],
    ]);
  });

  it("is part of the batch's all or nothing, and refuses what it does not emulate", async () => {
    const before = await formulas("Products!B2:C2");
    const grid = await googleError(
      client.spreadsheets.batchUpdate({
        spreadsheetId: id,
        requestBody: {
          requests: [paste("=1+1"), paste("x", { coordinate: { sheetId: 0, rowIndex: 5000, columnIndex: 0 } })],
        },
      }),
    );
    expect(grid.body.error.message).toMatch(/exceeds grid limits/);
    expect(await formulas("Products!B2:C2")).toEqual(before);
    expect(
      (
        await googleError(
          client.spreadsheets.batchUpdate({
            spreadsheetId: id,
            requestBody: { requests: [paste("<b>x</b>", { html: true, delimiter: undefined })] },
          }),
        )
      ).status,
    ).toBe(400);
  });
});

describe("faults and Drive", () => {
  it("injects 429 RESOURCE_EXHAUSTED, 503 and delays per route", async () => {
    emulator.faults.add({ route: "values.get", status: 429 });
    const limited = await googleError(client.spreadsheets.values.get({ spreadsheetId: id, range: "Products" }));
    expect(limited.body.error).toMatchObject({ code: 429, status: "RESOURCE_EXHAUSTED" });
    emulator.faults.add({ route: "values.get", status: 503 });
    expect((await googleError(client.spreadsheets.values.get({ spreadsheetId: id, range: "Products" }))).status).toBe(
      503,
    );
    emulator.faults.add({ route: "values.get", delayMs: 300 });
    const started = Date.now();
    await client.spreadsheets.values.get({ spreadsheetId: id, range: "Products" });
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
  });

  it("reports modifiedTime only once an edit has settled: minutes later by default, then the latest edit's time", async () => {
    const files = drive({ version: "v3", auth: serviceAccountAuth(), rootUrl: `${emulator.url}/` });
    const modifiedTime = async () => (await files.files.get({ fileId: id, fields: "modifiedTime" })).data.modifiedTime!;
    const before = await modifiedTime();
    expect(before).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    await client.spreadsheets.values.update({
      spreadsheetId: id,
      range: "Products!B2",
      valueInputOption: "RAW",
      requestBody: { values: [["x"]] },
    });
    const firstEdit = Date.now();
    await client.spreadsheets.values.update({
      spreadsheetId: id,
      range: "Products!B3",
      valueInputOption: "RAW",
      requestBody: { values: [["y"]] },
    });
    // The default lag is about 3 minutes: right after the edits, Drive still reports the old time.
    expect(await modifiedTime()).toBe(before);
    // With a shorter lag the edits settle, and modifiedTime jumps to the latest one.
    emulator.setModifiedTimeLag(300);
    await new Promise((r) => setTimeout(r, 350));
    const after = await modifiedTime();
    expect(Date.parse(after)).toBeGreaterThanOrEqual(firstEdit);
    expect(Date.parse(after)).toBeLessThanOrEqual(Date.now() - 300);
    await client.spreadsheets.values.update({
      spreadsheetId: id,
      range: "Products!B4",
      valueInputOption: "RAW",
      requestBody: { values: [["z"]] },
    });
    expect(await modifiedTime()).toBe(after);
    emulator.setModifiedTimeLag(180_000);
  });
});

describe("volatile values", () => {
  it("a NOW() cell changes on every read while Drive's modifiedTime stays put", async () => {
    const files = drive({ version: "v3", auth: serviceAccountAuth(), rootUrl: `${emulator.url}/` });
    emulator.setModifiedTimeLag(0);
    await client.spreadsheets.values.update({
      spreadsheetId: id,
      range: "Products!H2",
      valueInputOption: "USER_ENTERED",
      requestBody: { values: [["=NOW()"]] },
    });
    const read = async () =>
      (
        await client.spreadsheets.values.get({
          spreadsheetId: id,
          range: "Products!H2",
          valueRenderOption: "UNFORMATTED_VALUE",
        })
      ).data.values![0]![0] as number;
    const modified = async () => (await files.files.get({ fileId: id, fields: "modifiedTime" })).data.modifiedTime;
    const [first, firstModified] = [await read(), await modified()];
    await new Promise((r) => setTimeout(r, 50));
    const [second, secondModified] = [await read(), await modified()];
    expect(second).toBeGreaterThan(first);
    expect(Math.abs(second - (Date.now() - Date.UTC(1899, 11, 30)) / 86_400_000)).toBeLessThan(1 / 86_400); // within a second of now
    expect(secondModified).toBe(firstModified);
    const shown = (await client.spreadsheets.values.get({ spreadsheetId: id, range: "Products!H2" })).data
      .values![0]![0];
    expect(shown).toMatch(/\d/);
    emulator.setModifiedTimeLag(180_000);
  });
});

describe("admin: make a copy", () => {
  it("copies a spreadsheet with its tabs, values and sharing under a new id, independent of the original", async () => {
    const res = await fetch(`${emulator.url}/__admin/spreadsheets/${id}/copy`, { method: "POST" });
    expect(res.status).toBe(201);
    const { spreadsheetId } = (await res.json()) as { spreadsheetId: string };
    expect(spreadsheetId).not.toBe(id);
    const [original, copy] = await Promise.all(
      [id, spreadsheetId].map((s) => client.spreadsheets.values.get({ spreadsheetId: s, range: "Products" })),
    );
    expect(copy!.data.values).toEqual(original!.data.values);
    expect((await anonymous.spreadsheets.get({ spreadsheetId })).data.properties?.title).toBe("Acme Store");
    await client.spreadsheets.values.update({
      spreadsheetId,
      range: "Products!B2",
      valueInputOption: "RAW",
      requestBody: { values: [["changed"]] },
    });
    expect((await client.spreadsheets.values.get({ spreadsheetId: id, range: "Products!B2" })).data.values).not.toEqual(
      [["changed"]],
    );
  });
});
