// Developer metadata, batchUpdate atomicity and write faults, driven through the real googleapis
// client: what Google documents (spreadsheets.developerMetadata, "Read, write, and search
// metadata"), not what the service happens to need.
import { sheets, type sheets_v4 } from "@googleapis/sheets";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startGoogleEmulator, type GoogleEmulator } from "./server";
import { DEMO_SPREADSHEET_ID, EMULATOR_SERVICE_ACCOUNT } from "./seed";
import { newServiceAccount, serviceAccountClient } from "./test-support";

let emulator: GoogleEmulator;
let client: sheets_v4.Sheets;
const id = DEMO_SPREADSHEET_ID;
const account = newServiceAccount(EMULATOR_SERVICE_ACCOUNT);
const auth = () => serviceAccountClient(emulator.url, account, ["https://www.googleapis.com/auth/spreadsheets"]);

beforeAll(async () => {
  emulator = await startGoogleEmulator({ serviceAccountKeys: [account] });
  client = sheets({ version: "v4", auth: auth(), rootUrl: `${emulator.url}/`, retry: false });
});
afterAll(() => emulator.stop());
beforeEach(() => {
  emulator.store.reset();
  emulator.faults.clear();
});

const rowTag = (metadataId: number, startIndex: number, endIndex = startIndex + 1): sheets_v4.Schema$Request => ({
  createDeveloperMetadata: {
    developerMetadata: {
      metadataId,
      metadataKey: "tag",
      metadataValue: String(metadataId),
      location: { dimensionRange: { sheetId: 0, dimension: "ROWS", startIndex, endIndex } },
      visibility: "DOCUMENT",
    },
  },
});
const batch = (requests: sheets_v4.Schema$Request[]) =>
  client.spreadsheets.batchUpdate({ spreadsheetId: id, requestBody: { requests } });
const find = async (lookup: sheets_v4.Schema$DeveloperMetadataLookup) =>
  (
    await client.spreadsheets.developerMetadata.search({
      spreadsheetId: id,
      requestBody: { dataFilters: [{ developerMetadataLookup: lookup }] },
    })
  ).data.matchedDeveloperMetadata ?? [];
const failure = async (promise: Promise<unknown>) => {
  try {
    await promise;
  } catch (err) {
    return err as { status: number; response: { data: { error: { message: string } } } };
  }
  throw new Error("expected the call to fail");
};

describe("developer metadata", () => {
  it("is created with the reply Google gives and found by id, key or location", async () => {
    const { data } = await batch([rowTag(11, 3)]);
    expect(data.replies?.[0]?.createDeveloperMetadata?.developerMetadata).toEqual({
      metadataId: 11,
      metadataKey: "tag",
      metadataValue: "11",
      visibility: "DOCUMENT",
      location: { locationType: "ROW", dimensionRange: { sheetId: 0, dimension: "ROWS", startIndex: 3, endIndex: 4 } },
    });
    expect((await find({ metadataId: 11 })).map((m) => m.developerMetadata?.metadataId)).toEqual([11]);
    expect(
      await find({
        metadataKey: "tag",
        metadataLocation: { sheetId: 0 },
        locationMatchingStrategy: "INTERSECTING_LOCATION",
      }),
    ).toHaveLength(1);
    expect(await find({ metadataKey: "tag", metadataLocation: { sheetId: 0 } })).toHaveLength(0); // exact: a row is not the sheet
    expect(
      (await client.spreadsheets.developerMetadata.get({ spreadsheetId: id, metadataId: 11 })).data.metadataKey,
    ).toBe("tag");
  });

  it("moves with its row when rows are inserted or deleted above, and is deleted with the row", async () => {
    await batch([rowTag(1, 3), rowTag(2, 5)]);
    await batch([{ insertDimension: { range: { sheetId: 0, dimension: "ROWS", startIndex: 1, endIndex: 3 } } }]);
    expect((await find({ metadataId: 1 }))[0]?.developerMetadata?.location?.dimensionRange).toMatchObject({
      startIndex: 5,
      endIndex: 6,
    });
    await batch([{ deleteDimension: { range: { sheetId: 0, dimension: "ROWS", startIndex: 5, endIndex: 6 } } }]);
    expect(await find({ metadataId: 1 })).toEqual([]);
    expect((await find({ metadataId: 2 }))[0]?.developerMetadata?.location?.dimensionRange).toMatchObject({
      startIndex: 6,
      endIndex: 7,
    });
  });

  it("ids are unique in the spreadsheet: a second create with the id fails, and its whole batch with it", async () => {
    await batch([rowTag(7, 2)]);
    const before = JSON.stringify(emulator.store.get(id)!.tabs[0]);
    const err = await failure(
      batch([
        { deleteDimension: { range: { sheetId: 0, dimension: "ROWS", startIndex: 1, endIndex: 2 } } },
        rowTag(7, 4),
      ]),
    );
    expect(err.status).toBe(400);
    expect(err.response.data.error.message).toMatch(/ID 7 already exists/);
    expect(JSON.stringify(emulator.store.get(id)!.tabs[0])).toBe(before);
  });

  it("is deleted by a data filter; a filter matching nothing deletes nothing and succeeds", async () => {
    await batch([rowTag(1, 2), rowTag(2, 3)]);
    const { data } = await batch([
      {
        deleteDeveloperMetadata: {
          dataFilter: {
            developerMetadataLookup: {
              metadataKey: "tag",
              metadataLocation: { sheetId: 0 },
              locationMatchingStrategy: "INTERSECTING_LOCATION",
            },
          },
        },
      },
    ]);
    expect(data.replies?.[0]?.deleteDeveloperMetadata?.deletedDeveloperMetadata).toHaveLength(2);
    expect(
      (await batch([{ deleteDeveloperMetadata: { dataFilter: { developerMetadataLookup: { metadataId: 99 } } } }])).data
        .replies,
    ).toEqual([{ deleteDeveloperMetadata: {} }]);
  });

  it("is capped at 30,000 characters per sheet", async () => {
    const big = (metadataId: number) => ({
      createDeveloperMetadata: {
        developerMetadata: {
          metadataId,
          metadataKey: "k",
          metadataValue: "x".repeat(14_000),
          location: { sheetId: 0 },
          visibility: "DOCUMENT",
        },
      },
    });
    await batch([big(1), big(2)]);
    expect((await failure(batch([big(3)]))).status).toBe(400);
  });
});

describe("updateCells", () => {
  it("writes entered values (a stringValue stays text) and refuses to write past the grid", async () => {
    await batch([
      {
        updateCells: {
          start: { sheetId: 0, rowIndex: 1, columnIndex: 1 },
          rows: [
            { values: [{ userEnteredValue: { stringValue: "=1+1" } }, { userEnteredValue: { numberValue: 5 } }, {}] },
          ],
          fields: "userEnteredValue",
        },
      },
    ]);
    const { data } = await client.spreadsheets.values.get({
      spreadsheetId: id,
      range: "Products!B2:D2",
      valueRenderOption: "UNFORMATTED_VALUE",
    });
    expect(data.values).toEqual([["=1+1", 5]]);
    const err = await failure(
      batch([
        {
          updateCells: {
            start: { sheetId: 0, rowIndex: 1000, columnIndex: 0 },
            rows: [{ values: [{ userEnteredValue: { stringValue: "x" } }] }],
            fields: "userEnteredValue",
          },
        },
      ]),
    );
    expect(err.response.data.error.message).toMatch(/exceeds grid limits/);
  });
});

describe("write faults", () => {
  const rowCount = () => emulator.store.get(id)!.tabs[0]!.rows.length;
  const insert = () =>
    batch([{ insertDimension: { range: { sheetId: 0, dimension: "ROWS", startIndex: 1, endIndex: 2 } } }]);

  it("late: the write lands after the client gave up", async () => {
    const quick = sheets({ version: "v4", auth: auth(), rootUrl: `${emulator.url}/`, retry: false, timeout: 100 });
    await quick.spreadsheets.get({ spreadsheetId: id }); // its token first, so only the write times out
    const before = rowCount();
    emulator.faults.add({ route: "spreadsheets.batchUpdate", delayMs: 400 });
    await expect(
      quick.spreadsheets.batchUpdate({
        spreadsheetId: id,
        requestBody: {
          requests: [{ insertDimension: { range: { sheetId: 0, dimension: "ROWS", startIndex: 1, endIndex: 2 } } }],
        },
      }),
    ).rejects.toThrow();
    expect(rowCount()).toBe(before);
    await new Promise((r) => setTimeout(r, 500));
    expect(rowCount()).toBe(before + 1);
  });

  it("applied, then failed; and failed without applying", async () => {
    const before = rowCount();
    emulator.faults.add({ route: "spreadsheets.batchUpdate", status: 500, applied: true });
    expect((await failure(insert())).status).toBe(500);
    expect(rowCount()).toBe(before + 1);
    emulator.faults.add({ route: "spreadsheets.batchUpdate", status: 500 });
    expect((await failure(insert())).status).toBe(500);
    expect(rowCount()).toBe(before + 1);
  });
});
