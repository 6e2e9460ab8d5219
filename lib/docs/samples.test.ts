// The public docs page shows a sheet's own values only while anyone with the link can read it:
// once link sharing is off, real values stop within the sheet's cache TTL.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setSheetSettings } from "@/db/queries/sheets";
import { createUser } from "@/db/queries/users";
import { DEMO_SPREADSHEET_ID } from "@/emulators/google/seed";
import { memoryStore, setLimitStore } from "@/lib/store/store";
import { startTestService, type TestService } from "@/testing/service";
import { loadSheetDocs } from "./sheet-docs";
import { proveAccessWithGoogle } from "@/testing/google";

let svc: TestService;
let sheetId: string;
let userId: string;

beforeAll(async () => {
  svc = await startTestService();
  setLimitStore(memoryStore());
  const { registerSheet } = await import("@/lib/sheets/registration/registration");
  const user = await createUser({ email: "samples@example.com" });
  userId = user.id;
  sheetId = String((await svc.admin(`/spreadsheets/${DEMO_SPREADSHEET_ID}/copy`, {})).spreadsheetId);
  await proveAccessWithGoogle(user, [sheetId]);
  await registerSheet({ userId: user.id, sheetUrl: sheetId });
  await setSheetSettings({ id: sheetId, userId: user.id, settings: { cacheTtlSeconds: 1, maxStaleSeconds: 300 } });
});
afterAll(async () => {
  setLimitStore(undefined);
  await svc.stop();
});

describe("docs examples", () => {
  it("stop showing real values at once when the owner turns them off, and within the sheet's TTL once link sharing is turned off", async () => {
    const before = (await loadSheetDocs(sheetId))!.examples.get("Products")!;
    expect(before.real).toBe(true);
    expect(before.rows[0]).toMatchObject({ name: "Desk lamp" });

    await setSheetSettings({ id: sheetId, userId, settings: { docsExamples: false } });
    const off = (await loadSheetDocs(sheetId))!.examples.get("Products")!;
    expect([off.real, JSON.stringify(off.rows).includes("Desk lamp")]).toEqual([false, false]);
    await setSheetSettings({ id: sheetId, userId, settings: { docsExamples: true } });
    expect((await loadSheetDocs(sheetId))!.examples.get("Products")!.real).toBe(true);

    await svc.admin(`/spreadsheets/${sheetId}/access`, { linkAccess: "none" }, "PATCH");
    await new Promise((r) => setTimeout(r, 1100));
    const after = (await loadSheetDocs(sheetId))!.examples.get("Products")!;
    expect(after.real).toBe(false);
    expect(JSON.stringify(after.rows)).not.toContain("Desk lamp");
  });

  it("build rows without a prototype: a column named __proto__ is a field like any other", async () => {
    const { placeholderRow } = await import("./samples");
    const row = placeholderRow({
      name: "T",
      gid: 0,
      hasIdColumn: false,
      columns: [
        { name: "__proto__", index: 0, type: "number" },
        { name: "constructor", index: 1, type: "string" },
      ],
    });
    expect(JSON.stringify(row)).toBe('{"id":"2","__proto__":"42","constructor":"text"}');
  });
});
