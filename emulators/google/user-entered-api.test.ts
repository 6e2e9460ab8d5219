// USER_ENTERED writes through the official @googleapis/sheets client, read back as Google answers
// them: the value (UNFORMATTED_VALUE), how the sheet shows it in its locale (FORMATTED_VALUE) and
// the number format the typing gave the cell.
import type { sheets_v4 } from "@googleapis/sheets";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startGoogleEmulator, type GoogleEmulator } from "./server";
import { EMULATOR_SERVICE_ACCOUNT } from "./seed";
import { newServiceAccount, sheetsClient } from "./test-support";

let emulator: GoogleEmulator;
let client: sheets_v4.Sheets;

beforeAll(async () => {
  const account = newServiceAccount(EMULATOR_SERVICE_ACCOUNT);
  emulator = await startGoogleEmulator({ serviceAccountKeys: [account] });
  client = sheetsClient(emulator.url, account);
});
afterAll(() => emulator.stop());
beforeEach(() => emulator.store.reset());

function sheetIn(locale: string): string {
  return emulator.store.add({
    title: locale,
    locale,
    members: { [EMULATOR_SERVICE_ACCOUNT]: "writer" },
    tabs: [{ title: "T", rows: [["typed"]] }],
  }).spreadsheetId;
}

async function enter(spreadsheetId: string, typed: string[], valueInputOption = "USER_ENTERED") {
  await client.spreadsheets.values.update({
    spreadsheetId,
    range: `T!A2:A${typed.length + 1}`,
    valueInputOption,
    requestBody: { values: typed.map((t) => [t]) },
  });
  const read = async (valueRenderOption: string) =>
    (
      await client.spreadsheets.values.get({ spreadsheetId, range: `T!A2:A${typed.length + 1}`, valueRenderOption })
    ).data.values?.map((r) => r[0]);
  return { shown: await read("FORMATTED_VALUE"), value: await read("UNFORMATTED_VALUE") };
}

describe("values.update with USER_ENTERED", () => {
  it("reads en_US grouped numbers, dollars, scientific notation, dates and times, and keeps the rest as sent", async () => {
    const id = sheetIn("en_US");
    const typed = [
      "1,234.5",
      "$1,234.50",
      "-$5",
      "1e3",
      "1/2/2024",
      "1/2/2024 10:30",
      "10:30",
      "(5)",
      "2/30/2024",
      " 1,23 ",
    ];
    expect(await enter(id, typed)).toEqual({
      shown: [
        "1,234.50",
        "$1,234.50",
        "-$5.00",
        "1.00E+03",
        "1/2/2024",
        "1/2/2024 10:30:00",
        "10:30:00 AM",
        "(5)",
        "2/30/2024",
        " 1,23 ",
      ],
      value: [1234.5, 1234.5, -5, 1000, 45293, 45293.4375, 0.4375, "(5)", "2/30/2024", " 1,23 "],
    });
    const { data } = await client.spreadsheets.get({
      spreadsheetId: id,
      ranges: ["T!A3"],
      fields: "sheets/data/rowData/values(userEnteredValue,userEnteredFormat/numberFormat)",
    });
    expect(data.sheets![0]!.data![0]!.rowData![0]!.values![0]).toEqual({
      userEnteredValue: { numberValue: 1234.5 },
      userEnteredFormat: { numberFormat: { type: "CURRENCY", pattern: '"$"#,##0.00' } },
    });
  });

  it("reads en_GB and de_DE dates day first, and German separators, euros and WAHR", async () => {
    expect(await enter(sheetIn("en_GB"), ["1/2/2024", "£3", "10:30 pm"])).toEqual({
      shown: ["01/02/2024", "£3.00", "22:30:00"],
      value: [45323, 3, 0.9375],
    });
    expect(await enter(sheetIn("de_DE"), ["1.2.2024", "1.234,50 €", "1.234,5", "WAHR", "1,234.5"])).toEqual({
      shown: ["01.02.2024", "1.234,50 €", "1.234,50", "TRUE", "1,234.5"],
      value: [45323, 1234.5, 1234.5, true, "1,234.5"],
    });
  });

  it("stores the same strings as text with RAW", async () => {
    expect(await enter(sheetIn("en_US"), ["$5", "1/2/2024"], "RAW")).toEqual({
      shown: ["$5", "1/2/2024"],
      value: ["$5", "1/2/2024"],
    });
  });
});

describe("pasteData", () => {
  it("parses pasted text as typed, in the sheet's locale", async () => {
    const id = sheetIn("de_DE");
    await client.spreadsheets.batchUpdate({
      spreadsheetId: id,
      requestBody: {
        requests: [
          {
            pasteData: {
              coordinate: { sheetId: 0, rowIndex: 1 },
              data: "5 €\t25:30\t(5)",
              delimiter: "\t",
              type: "PASTE_NORMAL",
            },
          },
        ],
      },
    });
    const row = async (valueRenderOption: string) =>
      (await client.spreadsheets.values.get({ spreadsheetId: id, range: "T!A2:C2", valueRenderOption })).data.values;
    expect(await row("FORMATTED_VALUE")).toEqual([["5,00 €", "25:30:00", "(5)"]]);
    expect(await row("UNFORMATTED_VALUE")).toEqual([[5, 1.0625, "(5)"]]);
  });
});
