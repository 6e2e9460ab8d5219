// Only people with access to a sheet can register it (DECISIONS 18), in every sharing state and
// flow, and who holds a contested sheet.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { getSheet, listClaimsAgainst } from "@/db/queries/sheets";
import { webhookEndpoints } from "@/db/schema";
import { listEndpoints } from "@/lib/webhooks/endpoints";
import { createUser } from "@/db/queries/users";
import type { User } from "@/db/schema";
import { memoryStore } from "@/lib/store/memory-store";
import { setLimitStore } from "@/lib/store/store";
import { ApiError } from "@/lib/errors";
import { connectGoogleAccount, pickInGooglePicker } from "@/testing/google";
import { rowsClient } from "@/testing/rows-client";
import { startTestService, type TestService } from "@/testing/service";

const SA = "sheetapi-local@sheetapi-local.iam.gserviceaccount.com";
let svc: TestService;
let registration: typeof import("@/lib/sheets/registration/registration");
let b: User;
let c: User;
let d: User;

beforeAll(async () => {
  svc = await startTestService();
  setLimitStore(memoryStore());
  registration = await import("@/lib/sheets/registration/registration");
  b = await createUser({ email: "b@example.com", plan: "business" });
  c = await createUser({ email: "c@example.com", plan: "business" });
  d = await createUser({ email: "d@example.com", plan: "business" });
  // Each signs in to Google with their own account and connects it (drive.file).
  for (const u of [b, c, d]) await connectGoogleAccount(u, u.email!);
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

async function cSheet(
  title: string,
  sharing: { serviceAccount?: boolean; link?: boolean },
  editors: string[] = [],
): Promise<string> {
  const members: Record<string, string> = { "c@example.com": "owner" };
  if (sharing.serviceAccount) members[SA] = "writer";
  for (const e of editors) members[e] = "writer";
  const { spreadsheetId } = await svc.admin("/spreadsheets", {
    title,
    linkAccess: sharing.link ? "reader" : "none",
    members,
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
  return String(spreadsheetId);
}

describe("B cannot register C's sheet", () => {
  it.each([
    ["shared with the service account as editor", { serviceAccount: true }],
    ["viewable by anyone with the link", { link: true }],
    ["both", { serviceAccount: true, link: true }],
    ["shared with no one", {}],
  ])("%s: not by address, not by id, not through the private flow; C registers it afterwards", async (_, sharing) => {
    const id = await cSheet(`C's sheet (${_})`, sharing);
    for (const sheetUrl of [`https://docs.google.com/spreadsheets/d/${id}/edit#gid=0`, id]) {
      for (const via of ["service", "grant"] as const) {
        const err = await failure(registration.registerSheet({ userId: b.id, sheetUrl, via }));
        expect(err.code).toBe("forbidden");
        expect(err.message).toContain("b@example.com");
      }
    }
    expect(await getSheet({ id })).toBeUndefined();
    await pickInGooglePicker(c.id, [id]);
    const reg = await registration.registerSheet({ userId: c.id, sheetUrl: id });
    expect(reg).toMatchObject({ created: true, sheet: { userId: c.id, proof: "edit" } });
  });

  it("B's Picker does not offer or grant a sheet B cannot open", async () => {
    const id = await cSheet("C's private sheet", { serviceAccount: true });
    await expect(pickInGooglePicker(b.id, [id])).rejects.toThrow(/404/);
    expect((await failure(registration.registerSheet({ userId: b.id, sheetUrl: id }))).code).toBe("forbidden");
  });
});

describe("edit proof claims a sheet registered with view proof", () => {
  it("B's view-only registration of a link-viewable sheet is claimed by C; B's keys answer 401 saying why", async () => {
    const id = await cSheet("C's link sheet", { serviceAccount: true, link: true });
    // B opened the link and picked it: Google confirms B can view it, not edit it.
    await pickInGooglePicker(b.id, [id]);
    const bReg = await registration.registerSheet({ userId: b.id, sheetUrl: id });
    expect(bReg.sheet).toMatchObject({ userId: b.id, proof: "view", writable: false });
    const bKeys = rowsClient(id, bReg.apiKey!);
    expect((await bKeys.list("Items")).status).toBe(200);
    // B's webhook endpoint for it (inserted as addEndpoint would, without resolving an address).
    await getDb()
      .insert(webhookEndpoints)
      .values({ id: "ep_claimed", sheetId: id, url: "https://hooks.example.com/b", secretCiphertext: "x" });
    expect((await bKeys.create("Items", { name: "x" })).status).toBe(403);

    await pickInGooglePicker(c.id, [id]);
    const cReg = await registration.registerSheet({ userId: c.id, sheetUrl: id });
    expect(cReg).toMatchObject({ created: true, sheet: { userId: c.id, proof: "edit", writable: true } });
    expect(cReg.apiKey).toMatch(/^shk_/);

    const refused = await bKeys.list("Items");
    expect(refused.status).toBe(401);
    expect(refused.body).toMatchObject({ success: false, error: "unauthorized" });
    expect(String(refused.body.message)).toContain(
      "claimed by another account that proved with Google that it can edit it",
    );
    const cKeys = rowsClient(id, cReg.apiKey!);
    expect((await cKeys.create("Items", { name: "by C" })).status).toBe(201);
    // B's endpoint went with B's keys: C's writes are not sent to an address only B chose.
    expect(await listEndpoints(id)).toEqual([]);
    // B's dashboard can say why.
    expect(await listClaimsAgainst({ userId: b.id })).toEqual([
      expect.objectContaining({ sheetId: id, sheetName: "C's link sheet" }),
    ]);
    // B, a viewer, cannot claim it back.
    expect((await failure(registration.registerSheet({ userId: b.id, sheetUrl: id }))).code).toBe("conflict");
  });

  it("an editor claiming a link-viewable sheet through the private flow writes through the editor's grant", async () => {
    const id = await cSheet("C's link-only sheet", { link: true });
    await pickInGooglePicker(d.id, [id]);
    const dReg = await registration.registerSheet({ userId: d.id, sheetUrl: id });
    expect(dReg.sheet).toMatchObject({ proof: "view", writable: false, access: "service_account" });
    await pickInGooglePicker(c.id, [id]);
    const cReg = await registration.registerSheet({ userId: c.id, sheetUrl: id, via: "grant" });
    expect(cReg.sheet).toMatchObject({ userId: c.id, proof: "edit", writable: true, access: "oauth" });
    expect((await rowsClient(id, cReg.apiKey!).create("Items", { name: "by its editor" })).status).toBe(201);
  });

  it("a viewer's read-only sheet becomes writable when registered again once its editor shared it with the service account", async () => {
    const id = await cSheet("Later shared to edit", { link: true }, ["d@example.com"]);
    await svc.admin(`/spreadsheets/${id}/access`, { members: { "d@example.com": "reader" } }, "PATCH");
    await pickInGooglePicker(d.id, [id]);
    expect((await registration.registerSheet({ userId: d.id, sheetUrl: id })).sheet).toMatchObject({
      proof: "view",
      writable: false,
    });
    // Now an editor, but the service account may still only view it: registering again changes nothing.
    await svc.admin(`/spreadsheets/${id}/access`, { members: { "d@example.com": "writer" } }, "PATCH");
    expect((await registration.registerSheet({ userId: d.id, sheetUrl: id })).sheet).toMatchObject({ writable: false });
    await svc.admin(`/spreadsheets/${id}/access`, { members: { [SA]: "writer" } }, "PATCH");
    const again = await registration.registerSheet({ userId: d.id, sheetUrl: id });
    expect(again).toMatchObject({
      created: false,
      apiKey: null,
      sheet: { userId: d.id, proof: "edit", writable: true, access: "service_account" },
    });
  });

  it("between two editors the first registration stands", async () => {
    // The second is not the file's owner (an owner takes their sheet back, below).
    const e = await createUser({ email: "e@example.com", plan: "business" });
    await connectGoogleAccount(e, e.email!);
    const id = await cSheet("Shared by two editors", { serviceAccount: true }, ["d@example.com", "e@example.com"]);
    await pickInGooglePicker(e.id, [id]);
    await pickInGooglePicker(d.id, [id]);
    const first = await registration.registerSheet({ userId: d.id, sheetUrl: id });
    expect(first.sheet).toMatchObject({ userId: d.id, proof: "edit" });
    const err = await failure(registration.registerSheet({ userId: e.id, sheetUrl: id }));
    expect(err.code).toBe("conflict");
    expect(err.message).toContain("proved it can edit");
    expect((await getSheet({ id }))!.userId).toBe(d.id);
    expect((await rowsClient(id, first.apiKey!).list("Items")).status).toBe(200);
  });

  it("two viewers: the first stands too (view does not beat view)", async () => {
    const id = await cSheet("Link only", { link: true });
    await pickInGooglePicker(b.id, [id]);
    await pickInGooglePicker(d.id, [id]);
    await registration.registerSheet({ userId: b.id, sheetUrl: id });
    expect((await failure(registration.registerSheet({ userId: d.id, sheetUrl: id }))).code).toBe("conflict");
  });
});

describe("proof is current when a registration is contested: owners take their sheet back, editors take from lapsed ones", () => {
  const filesGets = () => svc.google.calls.get("files.get") ?? 0;
  // Fresh accounts per test, each with its own registration budget: the holder and a rival editor.
  let holder: User;
  let rival: User;
  let n = 0;
  beforeEach(async () => {
    n += 1;
    holder = await createUser({ email: `holder-${n}@example.com`, plan: "business" });
    rival = await createUser({ email: `rival-${n}@example.com`, plan: "business" });
    for (const u of [holder, rival]) await connectGoogleAccount(u, u.email!);
  });

  async function heldByHolder(
    title: string,
    editors: string[] = [],
  ): Promise<{ id: string; holderKeys: ReturnType<typeof rowsClient> }> {
    const id = await cSheet(title, { serviceAccount: true }, [holder.email!, ...editors]);
    await pickInGooglePicker(holder.id, [id]);
    const holderReg = await registration.registerSheet({ userId: holder.id, sheetUrl: id });
    expect(holderReg.sheet).toMatchObject({ userId: holder.id, proof: "edit", writable: true });
    return { id, holderKeys: rowsClient(id, holderReg.apiKey!) };
  }

  async function expectTakenFromHolder(id: string, holderKeys: ReturnType<typeof rowsClient>, by: User, title: string) {
    expect((await getSheet({ id }))!.userId).toBe(by.id);
    const refused = await holderKeys.list("Items");
    expect(refused.status).toBe(401);
    expect(String(refused.body.message)).toContain("claimed by another account");
    expect(await listClaimsAgainst({ userId: holder.id })).toEqual(
      expect.arrayContaining([expect.objectContaining({ sheetId: id, sheetName: title })]),
    );
  }

  it("the file's owner takes it back from an editor who registered it, asking Google nothing about the editor", async () => {
    const title = "Owner takes it back";
    const { id, holderKeys } = await heldByHolder(title);
    await pickInGooglePicker(c.id, [id]);
    const before = filesGets();
    const cReg = await registration.registerSheet({ userId: c.id, sheetUrl: id });
    expect(cReg).toMatchObject({ created: true, sheet: { userId: c.id, proof: "edit", writable: true } });
    expect(filesGets() - before).toBe(1 + 1); // the owner's proof, then the write reach of the service account
    await expectTakenFromHolder(id, holderKeys, c, title);
    expect((await rowsClient(id, cReg.apiKey!).create("Items", { name: "by its owner" })).status).toBe(201);
  });

  it("the owner takes it back after removing the editor in Google (no longer 409 for ever)", async () => {
    const title = "Editor removed";
    const { id, holderKeys } = await heldByHolder(title);
    await svc.admin(`/spreadsheets/${id}/access`, { members: { [holder.email!]: "none" } }, "PATCH");
    await pickInGooglePicker(c.id, [id]);
    expect((await registration.registerSheet({ userId: c.id, sheetUrl: id })).sheet).toMatchObject({
      userId: c.id,
      proof: "edit",
    });
    await expectTakenFromHolder(id, holderKeys, c, title);
  });

  it.each([
    [
      "removed from the sheet",
      async (id: string) =>
        void (await svc.admin(`/spreadsheets/${id}/access`, { members: { [holder.email!]: "none" } }, "PATCH")),
    ],
    [
      "made a viewer",
      async (id: string) =>
        void (await svc.admin(`/spreadsheets/${id}/access`, { members: { [holder.email!]: "reader" } }, "PATCH")),
    ],
    ["whose grant was revoked (invalid_grant)", async () => void (await svc.admin("/revoke", { email: holder.email }))],
  ])("a current editor takes the sheet from an editor %s; while both edit, the first stands", async (how, lapse) => {
    const title = `Held by a lapsed editor (${how})`;
    const { id, holderKeys } = await heldByHolder(title, [rival.email!]);
    await pickInGooglePicker(rival.id, [id]);
    const before = filesGets();
    expect((await failure(registration.registerSheet({ userId: rival.id, sheetUrl: id }))).code).toBe("conflict");
    expect(filesGets() - before).toBe(2); // b's proof and d's, each with its own grant
    expect((await holderKeys.list("Items")).status).toBe(200);
    await lapse(id);
    const rivalReg = await registration.registerSheet({ userId: rival.id, sheetUrl: id });
    expect(rivalReg).toMatchObject({ created: true, sheet: { userId: rival.id, proof: "edit", writable: true } });
    await expectTakenFromHolder(id, holderKeys, rival, title);
  });

  it("a current viewer takes nothing from a current editor, and asks Google nothing about the editor", async () => {
    const { id, holderKeys } = await heldByHolder("Viewer against editor");
    await svc.admin(`/spreadsheets/${id}/access`, { members: { [rival.email!]: "reader" } }, "PATCH");
    await pickInGooglePicker(rival.id, [id]);
    const before = filesGets();
    expect((await failure(registration.registerSheet({ userId: rival.id, sheetUrl: id }))).code).toBe("conflict");
    expect(filesGets() - before).toBe(1);
    expect((await getSheet({ id }))!.userId).toBe(holder.id);
    expect((await holderKeys.list("Items")).status).toBe(200);
  });
});

describe("an editor registering their sheet again is asked again", () => {
  it("made a viewer: read-only with the same keys; an editor again: writable again; removed: 403 as for a sheet never picked", async () => {
    const holder = await createUser({ email: "again-holder@example.com", plan: "business" });
    await connectGoogleAccount(holder, holder.email!);
    const id = await cSheet("Registered again", { serviceAccount: true }, [holder.email!]);
    await pickInGooglePicker(holder.id, [id]);
    const first = await registration.registerSheet({ userId: holder.id, sheetUrl: id });
    const keys = rowsClient(id, first.apiKey!);
    expect((await keys.create("Items", { name: "as editor" })).status).toBe(201);

    await svc.admin(`/spreadsheets/${id}/access`, { members: { [holder.email!]: "reader" } }, "PATCH");
    const asViewer = await registration.registerSheet({ userId: holder.id, sheetUrl: id });
    expect(asViewer).toMatchObject({ created: false, apiKey: null, sheet: { proof: "view", writable: false } });
    expect((await keys.create("Items", { name: "as viewer" })).status).toBe(403);
    expect((await keys.list("Items")).status).toBe(200);

    await svc.admin(`/spreadsheets/${id}/access`, { members: { [holder.email!]: "writer" } }, "PATCH");
    expect((await registration.registerSheet({ userId: holder.id, sheetUrl: id })).sheet).toMatchObject({
      proof: "edit",
      writable: true,
    });
    expect((await keys.create("Items", { name: "editor again" })).status).toBe(201);

    await svc.admin(`/spreadsheets/${id}/access`, { members: { [holder.email!]: "none" } }, "PATCH");
    const err = await failure(registration.registerSheet({ userId: holder.id, sheetUrl: id }));
    expect(err).toMatchObject({ code: "forbidden", extra: { reason: "not_picked" } });
  });
});
