// A tab without an id column gets one in one atomic write: after the last named column (nothing
// to its right overwritten), numbered down the non-blank rows; new rows then get the next ids.
import { afterAll, beforeAll, expect, it } from "vitest";
import { createUser } from "@/db/queries/users";
import { EMULATOR_SERVICE_ACCOUNT } from "@/emulators/google/seed";
import { memoryStore, setLimitStore } from "@/lib/store/store";
import { rowsClient } from "@/testing/rows-client";
import { storedRows } from "@/testing/sheet-audit";
import { startTestService, type TestService } from "@/testing/service";
import { proveAccessWithGoogle } from "@/testing/google";

let svc: TestService;
beforeAll(async () => {
  svc = await startTestService();
  setLimitStore(memoryStore());
});
afterAll(async () => {
  setLimitStore(undefined);
  await svc.stop();
});

it("numbers the rows 1, 2, 3... in a new id column, and creates continue from there", async () => {
  // A blank header cell (C) is not a column; D is; F holds a value under no header at all.
  const rows = [["name", "role", null, "note"], ["Ada", "x"], [], ["Grace", "y", null, "keep", null, "stray"]];
  const id = String(
    (
      await svc.admin("/spreadsheets", {
        title: "No ids",
        members: { [EMULATOR_SERVICE_ACCOUNT]: "writer" },
        tabs: [{ title: "People", rows }],
      })
    ).spreadsheetId,
  );
  const { registerSheet } = await import("@/lib/sheets/registration/registration");
  const user = await createUser({ email: "id-column@example.com", plan: "business" });
  await proveAccessWithGoogle(user, [id]);
  const reg = await registerSheet({ userId: user.id, sheetUrl: id });
  const { toSheetRecord } = await import("@/lib/sheets/sheet-record");
  const { addIdColumn } = await import("./id-column");
  const record = toSheetRecord(reg.sheet);
  svc.google.calls.clear();
  expect(await addIdColumn(record, reg.model.tabs[0]!)).toEqual({ column: 4, rows: 2 });
  expect(svc.google.calls.get("spreadsheets.batchUpdate")).toBe(1);
  const grid = storedRows(svc.google, id, "People");
  expect(grid.map((r) => r[4] ?? null)).toEqual(["id", 1, null, 2]);
  expect(grid[3]).toEqual(["Grace", "y", null, "keep", 2, null, "stray"]);
  const api = rowsClient(id, reg.apiKey!);
  const created = await api.create("People", { name: "Katherine" });
  expect((created.body.data as { rows: { id: string }[] }).rows[0]!.id).toBe("3");
  await expect(addIdColumn(record, { ...reg.model.tabs[0]!, hasIdColumn: false })).rejects.toThrow(
    /already has an id column/,
  );
});
