// Registration against emulators/google and a real (embedded) Postgres.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  DEMO_SPREADSHEET_ID,
  NO_ACCESS_SPREADSHEET_ID,
  PRIVATE_SPREADSHEET_ID,
  PUBLIC_READONLY_SPREADSHEET_ID,
} from "@/emulators/google/seed";
import { getSheet } from "@/db/queries/sheets";
import { toSheetRecord } from "@/lib/sheets/sheet-record";
import { createUser } from "@/db/queries/users";
import { ApiError } from "@/lib/errors";
import { listGrants } from "@/db/queries/grants";
import { connectGoogleAccount, pickInGooglePicker, proveAccessWithGoogle } from "@/testing/google";
import { startTestService, type TestService } from "@/testing/service";
import type { User } from "@/db/schema";

let svc: TestService;
let owner: User;
let registration: typeof import("./registration");
let schema: typeof import("@/lib/sheets/read/schema");

beforeAll(async () => {
  svc = await startTestService();
  registration = await import("./registration");
  schema = await import("@/lib/sheets/read/schema");
  owner = await createUser({ email: "owner@example.com" });
});
afterAll(() => svc.stop());

async function failure(promise: Promise<unknown>): Promise<ApiError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
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

  it("refuses an account that has not connected Google, and says how to prove access", async () => {
    const err = await failure(registration.registerSheet({ userId: owner.id, sheetUrl: address(DEMO_SPREADSHEET_ID) }));
    expect(err.code).toBe("forbidden");
    expect(err.extra.reason).toBe("no_google_grant");
    expect(err.message).toContain(
      "use “Choose a sheet from Google Drive” on the dashboard to let SheetAPI see the spreadsheets you choose (only those), then choose this one in Google Drive",
    );
    expect(await getSheet({ id: DEMO_SPREADSHEET_ID })).toBeUndefined();
  });

  it("names a grant Google revoked as the cause, not a connection never made, on the first try and after", async () => {
    const user = await createUser({ email: "revoked@example.com" });
    await connectGoogleAccount(user, "revoked@example.com");
    await svc.admin("/revoke", { email: "revoked@example.com" });
    // First Google refuses the grant (invalid_grant), then the grant is known to be refused.
    for (let attempt = 0; attempt < 2; attempt++) {
      const err = await failure(
        registration.registerSheet({ userId: user.id, sheetUrl: address(DEMO_SPREADSHEET_ID) }),
      );
      expect(err.code).toBe("forbidden");
      expect(err.extra.reason).toBe("google_grant_revoked");
      expect(err.message).toContain(
        "Google no longer accepts the access to your Google Drive files this account gave SheetAPI",
      );
      expect(err.message).not.toMatch(/not connected Google yet|One more step/);
    }
  });

  it("sends an id Google does not confirm for the person to the Picker as the next step", async () => {
    await connectGoogleAccount(owner, "owner@example.com");
    for (const id of [NO_ACCESS_SPREADSHEET_ID, DEMO_SPREADSHEET_ID]) {
      const err = await failure(registration.registerSheet({ userId: owner.id, sheetUrl: address(id) }));
      expect(err.code).toBe("forbidden");
      expect(err.extra.reason).toBe("not_picked");
      expect(err.message).toContain(`One more step: choose the spreadsheet ${id} in Google Drive`);
      expect(err.message).toContain("owner@example.com");
    }
  });

  it("names a mistyped id as not found in the person's Drive, with what was typed (Drive's 404 alone cannot tell)", async () => {
    const typed = " https://docs.google.com/spreadsheets/d/1ThisSpreadsheetDoesNotExist000000000000000/edit ";
    const err = await failure(registration.registerSheet({ userId: owner.id, sheetUrl: typed }));
    expect(err.code).toBe("not_found");
    expect(err.extra).toMatchObject({ reason: "not_in_drive", typed: typed.trim() });
    expect(err.message).toContain(
      "No spreadsheet with the id 1ThisSpreadsheetDoesNotExist000000000000000 was found in the Google Drive of owner@example.com",
    );
    expect(err.message).toContain(`You entered “${typed.trim()}”`);
  });

  it("registers a picked sheet shared with the service account as writable, with a first key and its tabs", async () => {
    await pickInGooglePicker(owner.id, [DEMO_SPREADSHEET_ID]);
    const reg = await registration.registerSheet({ userId: owner.id, sheetUrl: address(DEMO_SPREADSHEET_ID) });
    expect(reg.created).toBe(true);
    expect(reg.sheet).toMatchObject({
      id: DEMO_SPREADSHEET_ID,
      access: "service_account",
      writable: true,
      name: "Acme Store",
      proof: "edit",
    });
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

  it("answers the same account again with 200 and no new key, and another editor with conflict", async () => {
    const again = await registration.registerSheet({ userId: owner.id, sheetUrl: DEMO_SPREADSHEET_ID });
    expect(again).toMatchObject({ created: false, apiKey: null });
    const editor = await createUser({ email: "editor-of-demo@example.com" });
    await svc.admin(
      `/spreadsheets/${DEMO_SPREADSHEET_ID}/access`,
      { members: { "editor-of-demo@example.com": "writer" } },
      "PATCH",
    );
    await proveAccessWithGoogle(editor, [DEMO_SPREADSHEET_ID], "editor-of-demo@example.com");
    const err = await failure(registration.registerSheet({ userId: editor.id, sheetUrl: DEMO_SPREADSHEET_ID }));
    expect(err.code).toBe("conflict");
    expect(err.extra.reason).toBe("taken");
    // Who holds it (a person's address is theirs: not shown) and what to do.
    expect(err.message).toContain("already registered by another SheetAPI account, which proved it can edit it");
    expect(err.message).not.toContain("owner@example.com");
    expect(err.message).toContain("choose it in Google Drive while signed in to Google as its owner");
    expect((await getSheet({ id: DEMO_SPREADSHEET_ID }))!.userId).toBe(owner.id);
  });

  it("names the demo account as a sheet's holder, and no one else", async () => {
    const { spreadsheetId } = await svc.admin("/spreadsheets", {
      title: "Held by the demo",
      linkAccess: "none",
      members: {
        "someone@example.com": "owner",
        "demo@sheetapi.local": "writer",
        "second-editor@example.com": "writer",
      },
      tabs: [
        {
          title: "Items",
          rows: [
            ["id", "name"],
            [1, "first"],
          ],
        },
      ],
    });
    const id = String(spreadsheetId);
    const demo = await createUser({ email: "demo@sheetapi.local" });
    await proveAccessWithGoogle(demo, [id], "demo@sheetapi.local");
    await registration.registerSheet({ userId: demo.id, sheetUrl: id });
    const second = await createUser({ email: "second-editor@example.com" });
    await proveAccessWithGoogle(second, [id], "second-editor@example.com");
    const err = await failure(registration.registerSheet({ userId: second.id, sheetUrl: id }));
    expect(err.code).toBe("conflict");
    expect(err.message).toContain("already registered by the demo account (demo@sheetapi.local, seeded by npm start)");

    // The asker's own other account (the Google account they prove with holds it) is named too.
    const { spreadsheetId: ownId } = await svc.admin("/spreadsheets", {
      title: "Held by my other account",
      linkAccess: "none",
      members: { "twin@example.com": "writer" },
      tabs: [
        {
          title: "Items",
          rows: [
            ["id", "name"],
            [1, "first"],
          ],
        },
      ],
    });
    const twin = await createUser({ email: "twin@example.com" });
    await proveAccessWithGoogle(twin, [String(ownId)], "twin@example.com");
    await registration.registerSheet({ userId: twin.id, sheetUrl: String(ownId) });
    const otherAccount = await createUser({ email: "twin-work@example.com" });
    await proveAccessWithGoogle(otherAccount, [String(ownId)], "twin@example.com");
    const mine = await failure(registration.registerSheet({ userId: otherAccount.id, sheetUrl: String(ownId) }));
    expect(mine.message).toContain("already registered by your other SheetAPI account (twin@example.com)");
  });

  it("registers a link-viewable sheet the service account cannot edit as read-only, even for its owner, until the private flow", async () => {
    await pickInGooglePicker(owner.id, [PUBLIC_READONLY_SPREADSHEET_ID]);
    const reg = await registration.registerSheet({ userId: owner.id, sheetUrl: PUBLIC_READONLY_SPREADSHEET_ID });
    // "Anyone with the link" lets the service account read, so it reads with its own quota.
    expect(reg.sheet).toMatchObject({ access: "service_account", writable: false, proof: "edit" });
    // The private flow (through the owner's grant) makes it writable, with no new key.
    const again = await registration.registerSheet({
      userId: owner.id,
      sheetUrl: PUBLIC_READONLY_SPREADSHEET_ID,
      via: "grant",
    });
    expect(again).toMatchObject({ created: false, apiKey: null, sheet: { access: "oauth", writable: true } });
  });

  it("reaches a sheet the service account cannot open through the person's grant", async () => {
    const { spreadsheetId } = await svc.admin("/spreadsheets", {
      title: "Grant only",
      members: { "owner@example.com": "owner" },
      tabs: [{ title: "T", rows: [["a"], [1]] }],
    });
    await pickInGooglePicker(owner.id, [String(spreadsheetId)]);
    const reg = await registration.registerSheet({ userId: owner.id, sheetUrl: String(spreadsheetId) });
    expect(reg.sheet).toMatchObject({ access: "oauth", writable: true, proof: "edit" });
    expect(JSON.stringify(reg.sheet)).toMatch(/"refreshTokenCiphertext":"v1\./);
  });
});

describe("the schema", () => {
  it("names duplicate and blank headers per the rules", async () => {
    const { spreadsheetId } = await svc.admin("/spreadsheets", {
      title: "Headers",
      members: { "sheetapi-local@sheetapi-local.iam.gserviceaccount.com": "writer", "owner@example.com": "owner" },
      tabs: [
        {
          title: "Contacts",
          rows: [
            ["email", "", "name", "email", null, "email"],
            ["a@x", "", "A", "b@x", "", "c@x"],
          ],
        },
      ],
    });
    await pickInGooglePicker(owner.id, [String(spreadsheetId)]);
    const reg = await registration.registerSheet({ userId: owner.id, sheetUrl: String(spreadsheetId) });
    expect(reg.model.tabs[0]!.columns.map((c) => [c.name, c.index])).toEqual([
      ["email", 0],
      ["name", 2],
      ["email_2", 3],
      ["email_3", 5],
    ]);
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

describe("the private flow (through the person's grant)", () => {
  it("reaches the private sheet with the grant, kept encrypted, and reuses the one grant for a second sheet", async () => {
    await pickInGooglePicker(owner.id, [PRIVATE_SPREADSHEET_ID]);
    const reg = await registration.registerSheet({ userId: owner.id, sheetUrl: PRIVATE_SPREADSHEET_ID, via: "grant" });
    expect(reg.sheet).toMatchObject({ access: "oauth", writable: true, proof: "edit" });
    expect(reg.model.tabs.map((t) => t.name)).toEqual(["Budget"]);
    const grants = await listGrants({ userId: owner.id });
    expect(grants).toHaveLength(1);
    expect(reg.sheet.grantId).toBe(grants[0]!.id);
    const dump = JSON.stringify(await getSheet({ id: PRIVATE_SPREADSHEET_ID }));
    expect(dump).toMatch(/"refreshTokenCiphertext":"v1\./);
    expect(JSON.stringify(grants)).not.toMatch(/"refreshTokenCiphertext":"(?!v1\.)/);
    // A second private sheet: no new consent, the same grant.
    const { spreadsheetId } = await svc.admin("/spreadsheets", {
      title: "Second",
      members: { "owner@example.com": "owner" },
      tabs: [{ title: "T", rows: [["a"], [1]] }],
    });
    svc.google.calls.clear();
    await pickInGooglePicker(owner.id, [String(spreadsheetId)]);
    const second = await registration.registerSheet({
      userId: owner.id,
      sheetUrl: String(spreadsheetId),
      via: "grant",
    });
    expect(second.sheet.grantId).toBe(grants[0]!.id);
    expect(svc.google.calls.get("oauth.authorize")).toBeUndefined();
    expect(await listGrants({ userId: owner.id })).toHaveLength(1);
  });

  it("keeps one grant per Google account when the person consents again", async () => {
    const before = (await listGrants({ userId: owner.id }))[0]!;
    await connectGoogleAccount(owner, "owner@example.com");
    const after = await listGrants({ userId: owner.id });
    expect(after).toHaveLength(1);
    expect(after[0]!.id).toBe(before.id);
    expect(after[0]!.refreshTokenCiphertext).not.toBe(before.refreshTokenCiphertext);
    // Sheets reached through the grant carry the new token.
    expect((await getSheet({ id: PRIVATE_SPREADSHEET_ID }))!.refreshTokenCiphertext).toBe(
      after[0]!.refreshTokenCiphertext,
    );
  });

  it("names a scope the person unticked on the consent screen, and stores nothing", async () => {
    const user = await createUser({ email: "unticked@example.com" });
    const err = await failure(connectGoogleAccount(user, "unticked@example.com", []));
    expect(err.code).toBe("forbidden");
    expect(err.message).toContain("https://www.googleapis.com/auth/drive.file");
    expect(err.message).toContain("leave it ticked");
    expect(await listGrants({ userId: user.id })).toHaveLength(0);
    await connectGoogleAccount(user, "unticked@example.com", ["https://www.googleapis.com/auth/drive.file"]);
    expect((await listGrants({ userId: user.id }))[0]!.scope).toContain("drive.file");
  });
});
