// What a write costs in Google calls (counted by emulators/google), and that sharing costs no
// correctness: concurrent writes of a tab go out as one guarded batch, each request still gets
// its own answer and its own failure, the read after a write on the writer's instance is its
// write's read-back (as a fresh read gives it), and no Drive change check is made per write.
import { randomUUID } from "node:crypto";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createUser } from "@/db/queries/users";
import { setLimitStore } from "@/lib/store/store";
import { rowsClient } from "@/testing/rows-client";
import type { TestService } from "@/testing/service";
import { serviceAndStores } from "@/testing/stores";
import { registeredKey } from "@/testing/google";

let svc: TestService;
const stores = await serviceAndStores((s) => (svc = s), {
  modifiedTimeLagMs: 0,
  env: { CHANGE_CHECK_INTERVAL_MS: "600000" },
});
const SA = "sheetapi-local@sheetapi-local.iam.gserviceaccount.com";
const N = 30;

describe.each(stores)("on the %s store", (storeName, makeStore) => {
  let api: ReturnType<typeof rowsClient>;
  let sheetId: string;
  const calls = () => Object.fromEntries([...svc.google.calls].filter(([, n]) => n > 0));
  const sheetsCalls = () =>
    [...svc.google.calls].filter(([route]) => !route.startsWith("files.")).reduce((sum, [, n]) => sum + n, 0);
  const names = async () =>
    ((await api.list("Items", "limit=1000", { "Cache-Control": "no-cache" })).body.data as { name: string }[]).map(
      (r) => r.name,
    );

  beforeAll(async () => {
    setLimitStore(makeStore());
    sheetId = String(
      (
        await svc.admin("/spreadsheets", {
          title: `Batches ${storeName}`,
          members: { [SA]: "writer", "owner@example.com": "owner" },
          tabs: [
            // `total` in the first row sums every row's qty: a write elsewhere in the tab changes what it shows.
            {
              title: "Items",
              rows: [
                ["id", "name", "qty", "total"],
                [1, "first", 1, "=SUM(C2:C500)"],
                ...Array.from({ length: N }, (_, i) => [i + 2, `row ${i + 2}`, 0]),
              ],
            },
            {
              title: "Plain",
              rows: [
                ["name", "qty"],
                ["a", 1],
                ["b", 2],
              ],
            },
            {
              title: "Guarded",
              rows: [
                ["name", "status"],
                ["a", "new"],
                ["b", "new"],
              ],
            },
            { title: "Wide", rows: [["a", "b", "c"]] },
          ],
        })
      ).spreadsheetId,
    );
    const user = await createUser({ email: `batches-${storeName}-${randomUUID()}@example.com`, plan: "business" });
    api = rowsClient(sheetId, await registeredKey(user, sheetId));
    await api.list("Items"); // the Drive check of the first read is behind us
  });
  beforeEach(() => {
    svc.google.calls.clear();
    svc.google.faults.clear();
  });

  it(`answers ${N} concurrent creates 201 with distinct ids for one read and one batchUpdate, each row once`, async () => {
    const answers = await Promise.all(
      Array.from({ length: N }, (_, i) => api.create("Items", { name: `new ${i}`, qty: 1 })),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(N).fill(201));
    const ids = answers.map((a) => String((a.body.data as { rows: { id: string }[] }).rows[0]!.id));
    expect(new Set(ids).size).toBe(N);
    expect(sheetsCalls()).toBeLessThanOrEqual(3);
    expect(calls()).toMatchObject({ "spreadsheets.batchUpdate": expect.any(Number) });
    // Each answer is its own row, as the sheet shows it.
    answers.forEach((a, i) => expect((a.body.data as { rows: { name: string }[] }).rows[0]!.name).toBe(`new ${i}`));
    const all = await names();
    for (let i = 0; i < N; i++) expect(all.filter((n) => n === `new ${i}`)).toHaveLength(1);
  });

  it(`answers ${N} concurrent PUTs on different rows for at most 3 Google calls, each with its own row`, async () => {
    const answers = await Promise.all(
      Array.from({ length: N }, (_, i) => api.update("Items", String(i + 2), { qty: i + 100 })),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(N).fill(200));
    answers.forEach((a, i) => expect(a.body.data).toMatchObject({ id: String(i + 2), qty: String(i + 100) }));
    expect(sheetsCalls()).toBeLessThanOrEqual(3);
    const rows = (await api.list("Items", "limit=1000", { "Cache-Control": "no-cache" })).body.data as {
      id: string;
      qty: string;
    }[];
    for (let i = 0; i < N; i++) expect(rows.find((r) => r.id === String(i + 2))!.qty).toBe(String(i + 100));
  });

  it("gives each request of a shared batch its own failure: an invalid row, a stale If-Match, a missing row fail alone", async () => {
    const etag = (await api.get("Items", "3")).headers.get("etag")!;
    await api.update("Items", "3", { name: "changed since read" });
    const [bad, stale, missing, ...good] = await Promise.all([
      api.create("Items", { colour: "red" }),
      api.update("Items", "3", { qty: 1 }, { "If-Match": etag }),
      api.update("Items", "9999", { qty: 1 }),
      ...Array.from({ length: 5 }, (_, i) => api.update("Items", String(i + 10), { name: `good ${i}` })),
      ...Array.from({ length: 5 }, (_, i) => api.create("Items", { name: `good new ${i}` })),
    ]);
    expect([bad!.status, stale!.status, missing!.status]).toEqual([400, 412, 404]);
    expect(good.map((a) => a.status)).toEqual([...Array(5).fill(200), ...Array(5).fill(201)]);
    const all = await names();
    for (let i = 0; i < 5; i++) expect(all).toEqual(expect.arrayContaining([`good ${i}`, `good new ${i}`]));
  });

  /**
   * A tab "Narrow" (2 columns: id, name; one row, "first") in a workbook whose other tab fills
   * Google's 10 million cells but `freeCells`, read once: the workbook's room decides what fits.
   */
  async function narrowTabIn(title: string, freeCells: number) {
    const id = String(
      (
        await svc.admin("/spreadsheets", {
          title,
          members: { [SA]: "writer", "owner@example.com": "owner" },
          tabs: [
            {
              title: "Narrow",
              rows: [
                ["id", "name"],
                [1, "first"],
              ],
              rowCount: 2,
              columnCount: 2,
            },
            { title: "Filler", rows: [["x"]], rowCount: 10_000_000 - 4 - freeCells, columnCount: 1 },
          ],
        })
      ).spreadsheetId,
    );
    const user = await createUser({ email: `room-${randomUUID()}@example.com`, plan: "business" });
    const room = rowsClient(id, await registeredKey(user, id));
    await room.list("Narrow");
    return room;
  }

  it("sends a batch Google refuses again without the part Google names: only the create Google refuses fails, the others are written", async () => {
    // A spreadsheet holds at most 10 million cells (GOOGLE.md): Filler leaves Narrow (2 columns) room for 3 more rows.
    const room = await narrowTabIn(`Room ${storeName}`, 6);
    svc.google.calls.clear();
    const tooMany = Array.from({ length: 5 }, (_, i) => ({ name: `bulk ${i}` }));
    const [one, bulk, two] = await Promise.all([
      room.create("Narrow", { name: "one" }),
      room.create("Narrow", tooMany),
      room.create("Narrow", { name: "two" }),
    ]);
    expect([one!.status, bulk!.status, two!.status]).toEqual([201, 400, 201]);
    expect(String(bulk!.body.message)).toMatch(/above the limit of 10000000 cells/);
    // Google's reason, without its pointer into the service's own batch.
    expect(String(bulk!.body.message)).not.toMatch(/requests\[\d+\]/);
    // One refused batch naming the bulk create, then the two others once more.
    expect(svc.google.calls.get("spreadsheets.batchUpdate")).toBeLessThanOrEqual(2);
    const rows = (await room.list("Narrow", "", { "Cache-Control": "no-cache" })).body.data as { name: string }[];
    expect(rows.map((r) => r.name).sort()).toEqual(["first", "one", "two"]);
  });

  it("one refused create among ten costs one write more, not one per create", async () => {
    // Room for 12 more rows of Narrow; the bulk create's 13 never fit.
    const room = await narrowTabIn(`Halves ${storeName}`, 24);
    svc.google.calls.clear();
    const bulk = Array.from({ length: 13 }, (_, i) => ({ name: `bulk ${i}` }));
    const answers = await Promise.all([
      ...Array.from({ length: 6 }, (_, i) => room.create("Narrow", { name: `single ${i}` })),
      room.create("Narrow", bulk),
      ...Array.from({ length: 3 }, (_, i) => room.create("Narrow", { name: `single ${i + 6}` })),
    ]);
    expect(answers.map((a) => a.status)).toEqual([...Array(6).fill(201), 400, ...Array(3).fill(201)]);
    // Part by part would be 1 + 10; the refused batch, then the nine others together.
    expect(svc.google.calls.get("spreadsheets.batchUpdate")).toBeLessThanOrEqual(2);
    const rows = (await room.list("Narrow", "", { "Cache-Control": "no-cache" })).body.data as { name: string }[];
    expect(rows.map((r) => r.name).sort()).toEqual(["first", ...Array.from({ length: 9 }, (_, i) => `single ${i}`)]);
  });

  it("a refusal every part meets (a full workbook) costs a few writes, not one per part, and the tab stays writable", async () => {
    const room = await narrowTabIn(`Full ${storeName}`, 0);
    svc.google.calls.clear();
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) => room.create("Narrow", { name: `single ${i}` })),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(12).fill(400));
    expect(String(answers[0]!.body.message)).toMatch(/above the limit of 10000000 cells/);
    // The first batch and at most three more without the part Google named: not 1 + 12.
    expect(svc.google.calls.get("spreadsheets.batchUpdate")).toBeLessThanOrEqual(4);
    // Nothing was written and nothing is left pending: an update of the existing row goes through.
    const rows = (await room.list("Narrow", "", { "Cache-Control": "no-cache" })).body.data as {
      id: string;
      name: string;
    }[];
    expect(rows.map((r) => r.name)).toEqual(["first"]);
    expect((await room.update("Narrow", rows[0]!.id, { name: "renamed" })).status).toBe(200);
  });

  it("caps a batch by size: creates weighing over a megabyte together go out as two batches, each answered 201", async () => {
    const full = (c: string) => c.repeat(50_000); // a cell's most
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) => api.create("Wide", { a: full(String(i)), b: full("b"), c: full("c") })),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(8).fill(201));
    expect(svc.google.calls.get("spreadsheets.batchUpdate")).toBeGreaterThanOrEqual(2);
  });

  it("decides a second update of one row after the first: its If-Match is checked against the row the first left", async () => {
    const etag = (await api.get("Items", "4")).headers.get("etag")!;
    const answers = await Promise.all([
      api.update("Items", "4", { qty: 7 }, { "If-Match": etag }),
      api.update("Items", "4", { qty: 8 }, { "If-Match": etag }),
    ]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 412]);
  });

  it("shares a batch among updates of different cells of one row: each survives", async () => {
    const answers = await Promise.all([
      api.update("Items", "7", { name: "seven" }),
      api.update("Items", "7", { qty: 77 }),
    ]);
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
    expect(sheetsCalls()).toBeLessThanOrEqual(2);
    expect((await api.get("Items", "7", "", { "Cache-Control": "no-cache" })).body.data).toMatchObject({
      name: "seven",
      qty: "77",
    });
  });

  it("answers an update guarded by If-Match for what it changed alone, when an update of another cell of its row comes with it", async () => {
    // No id column: the If-Match guards the row's state, and the other update must not look like an edit made meanwhile.
    const etag = (await api.get("Guarded", "2")).headers.get("etag")!;
    const answers = await Promise.all([
      api.update("Guarded", "2", { name: "aa" }, { "If-Match": etag }),
      api.update("Guarded", "2", { status: "done" }),
    ]);
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
    expect((await api.get("Guarded", "2", "", { "Cache-Control": "no-cache" })).body.data).toMatchObject({
      name: "aa",
      status: "done",
    });
  });

  it("tells every request of a batch whose outcome stays unknown so (504), and settles it before the tab's next write", async () => {
    svc.google.faults.add({ route: "spreadsheets.batchUpdate", status: 503, count: -1 });
    const answers = await Promise.all(
      Array.from({ length: 5 }, (_, i) => api.create("Items", { name: `unknown ${i}` })),
    );
    expect(answers.map((a) => [a.status, a.body.error])).toEqual(Array(5).fill([504, "gateway_timeout"]));
    // Each is told how to check its own row.
    const checks = answers.map((a) => /Check with GET \S+\/Items\/(\d+)/.exec(String(a.body.message))?.[1]);
    expect(new Set(checks).size).toBe(5);
    svc.google.faults.clear();
    // The next write fences the batch first: it never lands, and nothing of it was written.
    expect((await api.create("Items", { name: "after unknown" })).status).toBe(201);
    expect((await names()).filter((n) => n.startsWith("unknown"))).toEqual([]);
  });

  it("answers every request of a batch whose answer failed after it was applied from its marker: each row once, where it landed", async () => {
    svc.google.faults.add({ route: "spreadsheets.batchUpdate", status: 500, applied: true });
    const answers = await Promise.all(Array.from({ length: 5 }, (_, i) => api.create("Items", { name: `late ${i}` })));
    expect(answers.map((a) => a.status)).toEqual(Array(5).fill(201));
    // No read-back came: the copies were out of date before the answers went out, so a read right after shows the rows.
    const cachedNames = ((await api.list("Items", "limit=1000")).body.data as { name: string }[]).map((r) => r.name);
    for (let i = 0; i < 5; i++) expect(cachedNames).toContain(`late ${i}`);
    const rows = (await api.list("Items", "limit=1000", { "Cache-Control": "no-cache" })).body.data as {
      id: string;
      name: string;
    }[];
    answers.forEach((a, i) => {
      const answered = (a.body.data as { rows: { id: string; name: string }[] }).rows[0]!;
      expect(rows.filter((r) => r.name === `late ${i}`)).toEqual([expect.objectContaining({ id: answered.id })]);
    });
  });

  it("serves the read after a create, an update and a delete from the write's read-back, as a fresh read gives it", async () => {
    for (const write of [
      () => api.create("Items", { name: "shown", qty: 5 }),
      () => api.update("Items", "5", { qty: 50 }),
      () => api.remove("Items", "6"),
    ]) {
      expect((await write()).status).toBeLessThan(300);
      svc.google.calls.clear();
      const cached = await api.list("Items", "limit=1000");
      const row = await api.get("Items", "5");
      expect([cached.headers.get("x-cache"), row.headers.get("x-cache")]).toEqual(["HIT", "HIT"]);
      expect(svc.google.calls.get("values.get") ?? 0).toBe(0);
      // The formula the write changed shows its new value, and the copy is the one a read makes.
      const fresh = await api.list("Items", "limit=1000", { "Cache-Control": "no-cache" });
      expect(cached.body).toEqual(fresh.body);
      expect(cached.headers.get("etag")).toBe(fresh.headers.get("etag"));
    }
    const total = ((await api.get("Items", "1")).body.data as { total: string }).total;
    const qty = ((await api.list("Items", "limit=1000")).body.data as { qty: string }[]).reduce(
      (sum, r) => sum + Number(r.qty || 0),
      0,
    );
    expect(Number(total)).toBe(qty);
  });

  it("keeps row numbers right on a tab without an id column: the read after a delete is the read-back", async () => {
    expect((await api.remove("Plain", "2")).status).toBe(200);
    const cached = await api.list("Plain");
    expect(cached.headers.get("x-cache")).toBe("HIT");
    expect(cached.body.data).toEqual([{ id: "2", name: "b", qty: "2" }]);
  });

  it("makes no Drive change check per write: 10 creates, each followed by a list, cost 10 reads and 10 writes", async () => {
    for (let i = 0; i < 10; i++) {
      expect((await api.create("Items", { name: `pair ${i}` })).status).toBe(201);
      expect((await api.list("Items")).headers.get("x-cache")).toBe("HIT");
    }
    expect(calls()).toEqual({ "values.get": 10, "spreadsheets.batchUpdate": 10 });
  });

  it("answers 409 to a create when its read-back shows an edit made between its read and its write: an id typed, a column renamed", async () => {
    const created = await api.create("Items", { name: "before the edit" });
    const id = Number((created.body.data as { rows: { id: string }[] }).rows[0]!.id);
    const editedWhileWriting = async (range: string, value: string | number, body: unknown) => {
      svc.google.faults.add({ route: "spreadsheets.batchUpdate", delayMs: 400 });
      const pending = api.create("Items", body);
      await new Promise((r) => setTimeout(r, 200));
      await svc.admin(`/spreadsheets/${sheetId}/values`, { range, values: [[value]] });
      return pending;
    };
    // The next id, typed in another row's id cell while the create was on its way.
    const doubled = await editedWhileWriting("'Items'!A3", id + 1, { name: "id typed meanwhile" });
    expect([doubled.status, doubled.body.error]).toEqual([409, "conflict"]);
    expect(String(doubled.body.message)).toMatch(new RegExp(`id "${id + 1}" too.*written at row \\d+`));
    // A column renamed meanwhile: the values went by the columns as they were.
    const renamed = await editedWhileWriting("'Items'!B1", "title", { name: "column renamed meanwhile" });
    expect([renamed.status, String(renamed.body.message)]).toEqual([
      409,
      expect.stringMatching(/columns changed \(now id, title, qty, total\)/),
    ]);
    await svc.admin(`/spreadsheets/${sheetId}/values`, { range: "'Items'!B1", values: [["name"]] });
    // Until the copy is read again (within the TTL), the API sees the tab as its copy shows it:
    // a write naming the column renamed back is refused as a read would not show it, reading nothing.
    svc.google.calls.clear();
    expect((await api.create("Items", { name: "not yet" })).status).toBe(400);
    expect(sheetsCalls()).toBe(0);
    await api.list("Items", "", { "Cache-Control": "no-cache" });
    // Read afresh, the tab shows the typed id: the next create goes above it.
    expect((await api.create("Items", { name: "read afresh" })).status).toBe(201);
  });
});
