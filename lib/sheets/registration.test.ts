// Registration against emulators/google and a real (embedded) Postgres.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_SPREADSHEET_ID, NO_ACCESS_SPREADSHEET_ID, PRIVATE_SPREADSHEET_ID, PUBLIC_READONLY_SPREADSHEET_ID } from "@/emulators/google/seed";
import { getSheet } from "@/db/queries/sheets";
import { toSheetRecord } from "./sheet-record";
import { createUser } from "@/db/queries/users";
import { ApiError } from "@/lib/http/errors";
import { ownerRefreshToken } from "@/testing/google";
import { startTestService, type TestService } from "@/testing/service";
import type { User } from "@/db/schema";

let svc: TestService;
let owner: User;
let other: User;
let registration: typeof import("./registration");
let schema: typeof import("./schema");

beforeAll(async () => {
  svc = await startTestService();
  registration = await import("./registration");
  schema = await import("./schema");
  owner = await createUser({ email: "owner@example.com" });
  other = await createUser({ email: "other@example.com" });
});
afterAll(() => svc.stop());

async function failure(promise: Promise<unknown>): Promise<ApiError> {
  const err = await promise.then(() => undefined, (e: unknown) => e);
  expect(err).toBeInstanceOf(ApiError);
  return err as ApiError;
}

const address = (id: string) => `https://docs.google.com/spreadsheets/d/${id}/edit#gid=0`;

describe("registerSheet", () => {
  it.each([
    ["https://example.com/spreadsheets/d/1AcmeStoreDemoSpreadsheet0000000000000000001/edit"],
    ["http://127.0.0.1/spreadsheets/d/1AcmeStoreDemoSpreadsheet0000000000000000001/edit"],
    ["https://docs.google.com:8443/spreadsheets/d/1AcmeStoreDemoSpreadsheet0000000000000000001/edit"],
    ["file:///etc/passwd"],
    ["not a url"],
    [""],
    [42],
  ])("refuses %j without contacting anyone", async (url) => {
    svc.google.calls.clear();
    const err = await failure(registration.registerSheet({ userId: owner.id, sheetUrl: url }));
    expect(err.code).toBe("validation_error");
    expect(svc.google.calls.size).toBe(0);
  });

  it("answers not_found for an id Google does not know", async () => {
    const err = await failure(registration.registerSheet({ userId: owner.id, sheetUrl: "1ThisSpreadsheetDoesNotExist000000000000000" }));
    expect(err.code).toBe("not_found");
  });

  it("answers forbidden with sharing instructions for a sheet the service cannot open", async () => {
    const err = await failure(registration.registerSheet({ userId: owner.id, sheetUrl: address(NO_ACCESS_SPREADSHEET_ID) }));
    expect(err.code).toBe("forbidden");
    expect(err.message).toContain("sheetapi-local@sheetapi-local.iam.gserviceaccount.com");
    expect(err.message).toContain("/auth/google?sheet_url=");
  });

  it("registers a sheet shared with the service account as writable, with a first key and its tabs", async () => {
    const reg = await registration.registerSheet({ userId: owner.id, sheetUrl: address(DEMO_SPREADSHEET_ID) });
    expect(reg.created).toBe(true);
    expect(reg.sheet).toMatchObject({ id: DEMO_SPREADSHEET_ID, access: "service_account", writable: true, name: "Acme Store" });
    expect(reg.apiKey).toMatch(/^shk_/);
    const doc = registration.registrationDocument(reg);
    expect(doc.tabs.map((t) => t.name)).toEqual(["Products", "Team Members", "Orders"]);
    expect(doc.tabs[0]!.columns).toEqual([
      { name: "id", type: "number" },
      { name: "name", type: "string" },
      { name: "price", type: "currency" },
      { name: "in_stock", type: "boolean" },
      { name: "released", type: "date" },
      { name: "rating", type: "number" },
      { name: "notes", type: "string" },
    ]);
    expect(doc.tabs[2]!.columns.map((c) => c.type)).toEqual(["string", "number", "number", "percent", "datetime"]);
    expect(doc.docs_url).toMatch(new RegExp(`/docs/${DEMO_SPREADSHEET_ID}$`));
  });

  it("answers the same account again with 200 and no new key, and another account with conflict", async () => {
    const again = await registration.registerSheet({ userId: owner.id, sheetUrl: DEMO_SPREADSHEET_ID });
    expect(again).toMatchObject({ created: false, apiKey: null });
    const err = await failure(registration.registerSheet({ userId: other.id, sheetUrl: DEMO_SPREADSHEET_ID }));
    expect(err.code).toBe("conflict");
  });

  it("registers a link-viewable sheet the service account cannot edit as read-only", async () => {
    const reg = await registration.registerSheet({ userId: owner.id, sheetUrl: PUBLIC_READONLY_SPREADSHEET_ID });
    // "Anyone with the link" lets the service account read, so it reads with its own quota.
    expect(reg.sheet).toMatchObject({ access: "service_account", writable: false });
  });

  it("falls back to the API key when only anonymous reads work", async () => {
    const { spreadsheetId } = await svc.admin("/spreadsheets", { title: "Key only", linkAccess: "reader", tabs: [{ title: "T", rows: [["a"], [1]] }] });
    // Take the service account's link access away: the emulator treats it as any account.
    await svc.admin(`/spreadsheets/${String(spreadsheetId)}/access`, { members: { "sheetapi-local@sheetapi-local.iam.gserviceaccount.com": "none" } }, "PATCH");
    const reg = await registration.registerSheet({ userId: owner.id, sheetUrl: String(spreadsheetId) });
    expect(reg.sheet).toMatchObject({ access: "public", writable: false });
  });
});

describe("the schema", () => {
  it("names duplicate and blank headers per the rules", async () => {
    const { spreadsheetId } = await svc.admin("/spreadsheets", {
      title: "Headers",
      members: { "sheetapi-local@sheetapi-local.iam.gserviceaccount.com": "writer" },
      tabs: [{ title: "Contacts", rows: [["email", "", "name", "email", null, "email"], ["a@x", "", "A", "b@x", "", "c@x"]] }],
    });
    const reg = await registration.registerSheet({ userId: owner.id, sheetUrl: String(spreadsheetId) });
    expect(reg.model.tabs[0]!.columns.map((c) => [c.name, c.index])).toEqual([["email", 0], ["name", 2], ["email_2", 3], ["email_3", 5]]);
    expect(reg.model.tabs[0]!.hasIdColumn).toBe(false);
  });

  it("shows a column added in the sheet after a refresh", async () => {
    await svc.admin(`/spreadsheets/${DEMO_SPREADSHEET_ID}/values`, { range: "Products!H1", values: [["supplier"]] });
    const sheet = toSheetRecord((await getSheet({ id: DEMO_SPREADSHEET_ID }))!);
    expect((await schema.getSheetModel(sheet)).tabs[0]!.columns.map((c) => c.name)).not.toContain("supplier");
    const model = await schema.refreshSheetModel(sheet);
    expect(model.tabs[0]!.columns.at(-1)).toEqual({ name: "supplier", index: 7, type: "string" });
    const stored = (await getSheet({ id: DEMO_SPREADSHEET_ID }))!;
    expect(stored.schemaUpdatedAt?.getTime()).toBe(model.updatedAt);
  });
});

describe("registerPrivateSheet", () => {
  it("stores the owner's refresh token encrypted and reaches the private sheet with it", async () => {
    const refreshToken = await ownerRefreshToken("owner@example.com");
    const reg = await registration.registerPrivateSheet({ userId: owner.id, sheetId: PRIVATE_SPREADSHEET_ID, refreshToken, grantEmail: "owner@example.com" });
    expect(reg.sheet).toMatchObject({ access: "oauth", writable: true });
    expect(reg.model.tabs.map((t) => t.name)).toEqual(["Budget"]);
    const dump = JSON.stringify(await getSheet({ id: PRIVATE_SPREADSHEET_ID }));
    expect(dump).toMatch(/"refreshTokenCiphertext":"v1\./);
    expect(dump).not.toContain(refreshToken);
  });

  it("refuses a grant that cannot open the sheet", async () => {
    const refreshToken = await ownerRefreshToken("stranger@example.com");
    const err = await failure(registration.registerPrivateSheet({ userId: other.id, sheetId: NO_ACCESS_SPREADSHEET_ID, refreshToken, grantEmail: "stranger@example.com" }));
    expect(err.code).toBe("forbidden");
  });
});
