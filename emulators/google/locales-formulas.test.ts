// Locales, formulas, render options, field masks and grid limits of emulators/google, through
// the official @googleapis/sheets client, checked against what Google documents and answers.
import type { sheets_v4 } from "@googleapis/sheets";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { SpreadsheetSeed } from "./model";
import { startGoogleEmulator, type GoogleEmulator } from "./server";
import { EMULATOR_SERVICE_ACCOUNT, GERMAN_SPREADSHEET_ID } from "./seed";
import { newServiceAccount, sheetsClient } from "./test-support";

let emulator: GoogleEmulator;
let client: sheets_v4.Sheets;

beforeAll(async () => {
  // The service account signs in at the emulator's token endpoint (JWT-bearer), as at Google's.
  const account = newServiceAccount(EMULATOR_SERVICE_ACCOUNT);
  emulator = await startGoogleEmulator({ serviceAccountKeys: [account] });
  client = sheetsClient(emulator.url, account);
});
afterAll(() => emulator.stop());
beforeEach(() => emulator.store.reset());

async function googleError(promise: Promise<unknown>): Promise<{ status: number; message: string }> {
  try {
    await promise;
  } catch (err) {
    const e = err as { status: number; response: { data: { error: { message: string } } } };
    return { status: e.status, message: e.response.data.error.message };
  }
  throw new Error("expected the call to fail");
}

const de = GERMAN_SPREADSHEET_ID;
const values = async (
  spreadsheetId: string,
  range: string,
  options: Partial<sheets_v4.Params$Resource$Spreadsheets$Values$Get> = {},
) => (await client.spreadsheets.values.get({ spreadsheetId, range, ...options })).data.values;

function addSheet(seed: Omit<SpreadsheetSeed, "members">): string {
  return emulator.store.add({ ...seed, members: { [EMULATOR_SERVICE_ACCOUNT]: "writer" } }).spreadsheetId;
}

const setLocale = (spreadsheetId: string, locale: string) =>
  client.spreadsheets.batchUpdate({
    spreadsheetId,
    requestBody: { requests: [{ updateSpreadsheetProperties: { properties: { locale }, fields: "locale" } }] },
  });

describe("the spreadsheet's locale", () => {
  it("reports locale and time zone in the spreadsheet's properties", async () => {
    const { data } = await client.spreadsheets.get({ spreadsheetId: de });
    expect(data.properties).toMatchObject({ title: "Bestellungen", locale: "de_DE", timeZone: "Europe/Berlin" });
  });

  it("shows de_DE numbers, currency, percent, dates and formula results as a German user sees them", async () => {
    expect(await values(de, "Bestellungen!A1:J3")).toEqual([
      ["id", "artikel", "menge", "gewicht", "preis", "rabatt", "bestellt", "geliefert", "bezahlt", "summe"],
      ["1", "Schreibtischlampe", "2", "24,5", "24,50 €", "15%", "15.01.2024", "17.01.2024 09:45", "TRUE", "49,00 €"],
      ["2", "Stehpult", "10", "1.234,5", "1.399,00 €", "0%", "12.06.2024", "17.06.2024 12:00", "FALSE", "13.990,00 €"],
    ]);
  });

  it("renders the same cells in fr_FR and en_US when the locale changes", async () => {
    await setLocale(de, "fr_FR");
    // Google groups French digits with U+202F NARROW NO-BREAK SPACE.
    expect(await values(de, "Bestellungen!D3:G3")).toEqual([["1\u202f234,5", "1\u202f399,00 €", "0%", "12.06.2024"]]);
    await setLocale(de, "en_US");
    expect(await values(de, "Bestellungen!D3:G3")).toEqual([["1,234.5", "1,399.00 €", "0%", "12.06.2024"]]);
  });

  it("gives formats without a pattern the locale's defaults", async () => {
    const id = addSheet({
      title: "Defaults",
      tabs: [
        {
          title: "T",
          rows: [
            ["plain", "number", "currency", "percent", "date", "datetime"],
            [1234.5, 1234.5, 24.5, 0.125, 45306, 45306.5],
          ],
          columnFormats: {
            number: { type: "NUMBER", pattern: "#,##0.0" },
            currency: { type: "CURRENCY" },
            percent: { type: "PERCENT" },
            date: { type: "DATE" },
            datetime: { type: "DATE_TIME" },
          },
        },
      ],
    });
    expect(await values(id, "T!A2:F2")).toEqual([
      ["1234.5", "1,234.5", "$24.50", "12.50%", "1/15/2024", "1/15/2024 12:00:00"],
    ]);
    await setLocale(id, "de_DE");
    expect(await values(id, "T!A2:F2")).toEqual([
      ["1234,5", "1.234,5", "24,50 €", "12,50%", "15.01.2024", "15.01.2024 12:00:00"],
    ]);
    await setLocale(id, "fr_FR");
    expect(await values(id, "T!A2:F2")).toEqual([
      ["1234,5", "1\u202f234,5", "24,50 €", "12,50%", "15/01/2024", "15/01/2024 12:00:00"],
    ]);
  });

  it("renders date patterns with month names, 12-hour clocks and negative sections", async () => {
    const id = addSheet({
      title: "Patterns",
      locale: "de_DE",
      tabs: [
        {
          title: "T",
          rows: [
            ["long", "clock", "signed"],
            [45306.75, 45306.75, -1234.5],
          ],
          columnFormats: {
            long: { type: "DATE", pattern: "d. mmmm yyyy" },
            clock: { type: "TIME", pattern: "h:mm AM/PM" },
            signed: { type: "NUMBER", pattern: "#,##0.00;(#,##0.00)" },
          },
        },
      ],
    });
    expect(await values(id, "T!A2:C2")).toEqual([["15. Januar 2024", "6:00 PM", "(1.234,50)"]]);
  });

  it("reads typed de_DE input with USER_ENTERED and shows booleans as TRUE and FALSE", async () => {
    await client.spreadsheets.values.update({
      spreadsheetId: de,
      range: "Bestellungen!D2:I2",
      valueInputOption: "USER_ENTERED",
      requestBody: { values: [["7,5", null, "20%", null, null, "false"]] },
    });
    expect(await values(de, "Bestellungen!D2:I2", { valueRenderOption: "UNFORMATTED_VALUE" })).toEqual([
      [7.5, 24.5, 0.2, 45306, 45308.40625, false],
    ]);
    expect(await values(de, "Bestellungen!I2:I3")).toEqual([["FALSE"], ["FALSE"]]);
  });
});

describe("formulas", () => {
  it("computes arithmetic with references and SUM over ranges; FORMULA gives the formula, UNFORMATTED_VALUE the number", async () => {
    await client.spreadsheets.values.update({
      spreadsheetId: de,
      range: "Bestellungen!K1:K4",
      valueInputOption: "USER_ENTERED",
      requestBody: { values: [["=SUM(C2:C5)"], ["=(D2+D3)*2-1"], ["=SUM(J2:J5)"], ["=Bestellungen!C2/0"]] },
    });
    // A result takes the format of the first cell it refers to: gewicht's "#,##0.0", summe's euros.
    expect(await values(de, "Bestellungen!K1:K4")).toEqual([["16"], ["2.517,0"], ["14.875,99 €"], ["#DIV/0!"]]);
    const [[count], [arithmetic], [total]] = (await values(de, "Bestellungen!K1:K3", {
      valueRenderOption: "UNFORMATTED_VALUE",
    })) as number[][] as [[number], [number], [number]];
    expect([count, arithmetic]).toEqual([16, 2517]);
    expect(total).toBeCloseTo(14875.99, 6);
    expect(await values(de, "Bestellungen!K1:K3", { valueRenderOption: "FORMULA" })).toEqual([
      ["=SUM(C2:C5)"],
      ["=(D2+D3)*2-1"],
      ["=SUM(J2:J5)"],
    ]);
  });

  it("gives grid data the formula as entered and its result as the effective value", async () => {
    await client.spreadsheets.values.update({
      spreadsheetId: de,
      range: "Bestellungen!K2:L2",
      valueInputOption: "USER_ENTERED",
      requestBody: { values: [["=C2/0", "=NOPE(1)"]] },
    });
    const { data } = await client.spreadsheets.get({
      spreadsheetId: de,
      ranges: ["Bestellungen!J2:L2"],
      includeGridData: true,
    });
    const [sum, div, name] = data.sheets![0]!.data![0]!.rowData![0]!.values!;
    expect(sum).toMatchObject({
      userEnteredValue: { formulaValue: "=E2*C2" },
      effectiveValue: { numberValue: 49 },
      formattedValue: "49,00 €",
    });
    expect(sum!.effectiveFormat?.numberFormat?.type).toBe("CURRENCY");
    expect(div).toMatchObject({
      effectiveValue: { errorValue: { type: "DIVIDE_BY_ZERO" } },
      formattedValue: "#DIV/0!",
    });
    expect(name).toMatchObject({
      effectiveValue: { errorValue: { type: "NAME", message: "Unknown function: 'nope'." } },
      formattedValue: "#NAME?",
    });
  });

  it("keeps formulas written RAW as text", async () => {
    await client.spreadsheets.values.update({
      spreadsheetId: de,
      range: "Bestellungen!K2",
      valueInputOption: "RAW",
      requestBody: { values: [["=1+1"]] },
    });
    expect(await values(de, "Bestellungen!K2")).toEqual([["=1+1"]]);
  });
});

describe("dateTimeRenderOption", () => {
  it("gives dates as serial numbers by default and as shown with FORMATTED_STRING, under UNFORMATTED_VALUE", async () => {
    expect(await values(de, "Bestellungen!E2:H2", { valueRenderOption: "UNFORMATTED_VALUE" })).toEqual([
      [24.5, 0.15, 45306, 45308.40625],
    ]);
    expect(
      await values(de, "Bestellungen!E2:H2", {
        valueRenderOption: "UNFORMATTED_VALUE",
        dateTimeRenderOption: "FORMATTED_STRING",
      }),
    ).toEqual([[24.5, 0.15, "15.01.2024", "17.01.2024 09:45"]]);
    // Ignored under FORMATTED_VALUE.
    expect(await values(de, "Bestellungen!G2", { dateTimeRenderOption: "SERIAL_NUMBER" })).toEqual([["15.01.2024"]]);
  });
});

describe("fields masks on spreadsheets.get", () => {
  it("returns only the requested fields", async () => {
    expect((await client.spreadsheets.get({ spreadsheetId: de, fields: "properties.locale" })).data).toEqual({
      properties: { locale: "de_DE" },
    });
    expect(
      (
        await client.spreadsheets.get({
          spreadsheetId: de,
          fields: "properties(title,timeZone),sheets.properties(sheetId,title)",
        })
      ).data,
    ).toEqual({
      properties: { title: "Bestellungen", timeZone: "Europe/Berlin" },
      sheets: [{ properties: { sheetId: 0, title: "Bestellungen" } }],
    });
  });

  it("returns grid data when the mask asks for it, without includeGridData", async () => {
    const { data } = await client.spreadsheets.get({
      spreadsheetId: de,
      ranges: ["Bestellungen!E2"],
      fields: "sheets/data/rowData/values(formattedValue,effectiveValue)",
    });
    expect(data).toEqual({
      sheets: [
        { data: [{ rowData: [{ values: [{ formattedValue: "24,50 €", effectiveValue: { numberValue: 24.5 } }] }] }] },
      ],
    });
  });

  it("answers 400 for a path that names no field, spaces included", async () => {
    const unknown = await googleError(client.spreadsheets.get({ spreadsheetId: de, fields: "properties.nope" }));
    expect(unknown).toEqual({
      status: 400,
      message: "Error expanding 'fields' parameter. Cannot find matching fields for path 'properties.nope'.",
    });
    const spaced = await googleError(
      client.spreadsheets.get({ spreadsheetId: de, fields: "properties, sheets.properties" }),
    );
    expect(spaced.message).toContain("' sheets.properties'");
  });
});

describe("deleting rows", () => {
  const del = (spreadsheetId: string, startIndex: number, endIndex: number) =>
    client.spreadsheets.batchUpdate({
      spreadsheetId,
      requestBody: {
        requests: [{ deleteDimension: { range: { sheetId: 0, dimension: "ROWS", startIndex, endIndex } } }],
      },
    });

  it("refuses to delete every row, or every non-frozen row", async () => {
    const all = await googleError(del(de, 0, 1000));
    expect(all).toEqual({
      status: 400,
      message: "Invalid requests[0].deleteDimension: You can't delete all the rows on the sheet.",
    });
    await client.spreadsheets.batchUpdate({
      spreadsheetId: de,
      requestBody: {
        requests: [
          {
            updateSheetProperties: {
              properties: { sheetId: 0, gridProperties: { frozenRowCount: 1 } },
              fields: "gridProperties.frozenRowCount",
            },
          },
        ],
      },
    });
    const unfrozen = await googleError(del(de, 1, 1000));
    expect(unfrozen).toEqual({
      status: 400,
      message: "Invalid requests[0].deleteDimension: Sorry, it is not possible to delete all non-frozen rows.",
    });
    await del(de, 1, 999);
    const { data } = await client.spreadsheets.get({ spreadsheetId: de, fields: "sheets.properties.gridProperties" });
    expect(data.sheets![0]!.properties!.gridProperties).toEqual({ rowCount: 2, columnCount: 26, frozenRowCount: 1 });
  });
});

describe("the 10 million cell limit", () => {
  const limit = "This action would increase the number of cells in the workbook above the limit of 10000000 cells.";
  // One tab of 26 columns grown to 384,615 rows: 9,999,990 cells, 10 short of the limit.
  async function nearlyFull(): Promise<string> {
    const id = addSheet({ title: "Big", tabs: [{ title: "T", rows: [["a"], [1]] }] });
    await client.spreadsheets.batchUpdate({
      spreadsheetId: id,
      requestBody: { requests: [{ appendDimension: { sheetId: 0, dimension: "ROWS", length: 384_615 - 1000 } }] },
    });
    return id;
  }

  it("refuses growth past the limit with Google's message, allocating nothing", async () => {
    const heap = process.memoryUsage().heapUsed;
    const id = await nearlyFull();
    const grow = (request: sheets_v4.Schema$Request) =>
      googleError(client.spreadsheets.batchUpdate({ spreadsheetId: id, requestBody: { requests: [request] } }));
    expect(await grow({ appendDimension: { sheetId: 0, dimension: "ROWS", length: 1 } })).toEqual({
      status: 400,
      message: `Invalid requests[0].appendDimension: ${limit}`,
    });
    expect(
      await grow({ insertDimension: { range: { sheetId: 0, dimension: "ROWS", startIndex: 1, endIndex: 5_000_000 } } }),
    ).toEqual({ status: 400, message: `Invalid requests[0].insertDimension: ${limit}` });
    expect(await grow({ addSheet: { properties: { title: "More" } } })).toEqual({
      status: 400,
      message: `Invalid requests[0].addSheet: ${limit}`,
    });
    const append = client.spreadsheets.values.append({
      spreadsheetId: id,
      range: "T",
      valueInputOption: "RAW",
      insertDataOption: "INSERT_ROWS",
      requestBody: { values: [["x"]] },
    });
    expect(await googleError(append)).toEqual({ status: 400, message: limit });
    const beyond = client.spreadsheets.values.update({
      spreadsheetId: id,
      range: "T!A384616",
      valueInputOption: "RAW",
      requestBody: { values: [["x"]] },
    });
    expect(await googleError(beyond)).toEqual({ status: 400, message: limit });
    expect(process.memoryUsage().heapUsed - heap).toBeLessThan(64 * 1024 * 1024);
  });

  it("grows the grid for writes beyond its edge while there is room, without filling the rows between", async () => {
    const id = addSheet({ title: "Tall", tabs: [{ title: "T", rows: [["a"], [1]], columnCount: 1 }] });
    await client.spreadsheets.values.update({
      spreadsheetId: id,
      range: "T!A5000000",
      valueInputOption: "RAW",
      requestBody: { values: [["far"]] },
    });
    const { data } = await client.spreadsheets.get({
      spreadsheetId: id,
      fields: "sheets.properties.gridProperties.rowCount",
    });
    expect(data.sheets![0]!.properties!.gridProperties!.rowCount).toBe(5_000_000);
    expect(emulator.store.get(id)!.tabs[0]!.rows.filter(Boolean)).toHaveLength(3);
    expect(await values(id, "T!A4999999:A5000000")).toEqual([[], ["far"]]);
  });
});
