// Writes by value end to end against emulators/google, on every limit store, checked in the
// spreadsheet: filtered PATCH and DELETE, bulk updates, upserts by key column, Idempotency-Key
// replays, each one batchUpdate; and two instances racing them on the same rows.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createUser } from "@/db/queries/users";
import { setLimitStore } from "@/lib/store/store";
import { instanceClient, startInstance, type Instance } from "@/testing/instances";
import { callRoute } from "@/testing/routes";
import { storedRecords } from "@/testing/sheet-audit";
import { startTestService, type TestService } from "@/testing/service";
import { storesUnderTest } from "@/testing/stores";
import { registeredKey } from "@/testing/google";

const { stores, start, stop } = await storesUnderTest();
let svc: TestService;
let instances: Instance[];
const SA = "sheetapi-local@sheetapi-local.iam.gserviceaccount.com";
const CONTACTS = [
  ["id", "email", "name", "plan", "score"],
  [1, "ada@example.com", "Ada", "pro", 10],
  [2, "grace@example.com", "Grace", "free", 20],
  [3, "alan@example.com", "Alan", "free", 30],
  [4, "kat@example.com", "Katherine", "pro", 40],
  [5, "edsger@example.com", "Edsger", "team", 50],
];

beforeAll(async () => {
  svc = await startTestService();
  await start();
  instances = [await startInstance(), await startInstance()];
});
afterAll(async () => {
  await stop();
  await svc.stop();
});
beforeEach(() => svc.google.calls.clear());

describe.each(stores)("on the %s store", (storeName, makeStore) => {
  let sheetId: string;
  let key: string;
  let user: Awaited<ReturnType<typeof createUser>>;
  const batches = () => svc.google.calls.get("spreadsheets.batchUpdate") ?? 0;
  const records = (tab = "Contacts") => storedRecords(svc.google, sheetId, tab);
  const send = async (
    method: "PATCH" | "DELETE" | "POST",
    query: string,
    body?: unknown,
    headers: Record<string, string> = {},
    on = 0,
    tab = "Contacts",
  ) =>
    callRoute(instances[on]!.collection[method], {
      method,
      path: `/api/v1/${sheetId}/${encodeURIComponent(tab)}${query ? `?${query}` : ""}`,
      params: { sheetId, tabName: tab },
      headers: { "X-API-Key": key, ...headers },
      body,
    });

  beforeAll(async () => {
    setLimitStore(makeStore());
    user = await createUser({ email: `bulk-${storeName}-${randomUUID()}@example.com`, plan: "business" });
  });

  // A fresh spreadsheet per test: each checks the sheet's whole content.
  beforeEach(async () => {
    sheetId = String(
      (
        await svc.admin("/spreadsheets", {
          title: "Bulk",
          members: { [SA]: "writer", "owner@example.com": "owner" },
          tabs: [
            {
              title: "Contacts",
              rows: CONTACTS,
              columnFormats: { score: { type: "CURRENCY", pattern: '"$"#,##0.00' } },
            },
            {
              title: "People",
              rows: [
                ["name", "city"],
                ["Ada", "London"],
                ["Bob", "Paris"],
                ["Cy", "Paris"],
              ],
              rowCount: 4,
              frozenRowCount: 1,
            },
          ],
        })
      ).spreadsheetId,
    );
    key = await registeredKey(user, sheetId);
    svc.google.calls.clear();
  });

  it("PATCH with a filter updates the matching rows' named cells in one write, within limit", async () => {
    const noFilter = await send("PATCH", "", { plan: "x" });
    expect(noFilter.status).toBe(400);
    expect(noFilter.body.message).toMatch(/^A filter is required/);
    const tooMany = await send("PATCH", "filter=plan=free", { plan: "pro" });
    expect(tooMany.status).toBe(409);
    expect(tooMany.body.message).toMatch(/^2 rows match "filter=plan=free", more than limit=1; nothing was changed/);
    expect(batches()).toBe(0);
    const dry = await send("PATCH", "filter=plan=free&dry_run=true", { plan: "pro" });
    expect(dry.body.data).toMatchObject({ matched: 2, updated: 0, dry_run: true });
    expect(batches()).toBe(0);
    const res = await send("PATCH", "filter=plan=free&limit=2", { plan: "pro", score: 99 });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({
      matched: 2,
      updated: 2,
      dry_run: false,
      rows: [
        { id: "2", email: "grace@example.com", plan: "pro", score: "$99.00" },
        { id: "3", plan: "pro", score: "$99.00" },
      ],
    });
    expect(batches()).toBe(1);
    expect(records().map((r) => `${r.id}:${r.plan}:${r.score}`)).toEqual([
      "1:pro:10",
      "2:pro:99",
      "3:pro:99",
      "4:pro:40",
      "5:team:50",
    ]);
    // By key: the usual case, one row by its email.
    expect(
      (await send("PATCH", `filter=${encodeURIComponent("email=ada@example.com")}`, { name: "Ada L." })).body.data,
    ).toMatchObject({ updated: 1 });
    expect(records()[0]).toMatchObject({ name: "Ada L.", email: "ada@example.com" });
    expect((await send("PATCH", "filter=plan=none", { plan: "x" })).body.data).toMatchObject({
      matched: 0,
      updated: 0,
      rows: [],
    });
    expect((await send("PATCH", "filter=plan=free", { id: "9" })).status).toBe(400);
  });

  it("checks If-Match against every row it changes: the ETags of a dry run", async () => {
    const dry = await send("PATCH", "filter=plan=pro&limit=5&dry_run=true", { score: 0 });
    const etags = (dry.body.data as { etags: string[] }).etags;
    expect(etags).toHaveLength(2);
    await send("PATCH", `filter=${encodeURIComponent("email=kat@example.com")}`, { name: "Kathy" });
    const stale = await send("PATCH", "filter=plan=pro&limit=5", { score: 0 }, { "If-Match": etags.join(", ") });
    expect(stale.status).toBe(412);
    expect(stale.body.message).toMatch(/^Row 4 is not as you read it/);
    expect(records().map((r) => r.score)).toEqual(["10", "20", "30", "40", "50"]);
    const fresh = (await send("DELETE", "filter=plan=pro&limit=5&dry_run=true")).body.data as {
      etags: string[];
      ids: string[];
    };
    expect(fresh.ids).toEqual(["1", "4"]);
    expect(
      (await send("PATCH", "filter=plan=pro&limit=5", { score: 0 }, { "If-Match": fresh.etags.join(", ") })).status,
    ).toBe(200);
  });

  it("a Write-only key cannot choose rows by their values: filtered writes, dry runs, upserts and arrays keyed by another column need Read too", async () => {
    const { createKeyForSheet } = await import("@/lib/keys/manage");
    const { value } = await createKeyForSheet({
      userId: user.id,
      sheetId,
      name: "form handler",
      permissions: ["write"],
    });
    const writeOnly = { "X-API-Key": value };
    for (const [method, query, body] of [
      ["PATCH", "filter=id>0&dry_run=true&limit=100", { name: "x" }],
      ["DELETE", "filter=id>0&dry_run=true&limit=100"],
      ["PATCH", "filter=plan=pro", { name: "x" }],
      ["DELETE", "or=plan%3Dpro"],
    ] as const) {
      const res = await send(method, query, body, writeOnly);
      expect(res.status, `${method} ${query}`).toBe(403);
      expect(res.body).toMatchObject({ success: false, error: "forbidden" });
      expect(res.body.message).toMatch(
        /lacks the Read permission\. Writes that choose rows by their values \(\?filter=/,
      );
      expect(JSON.stringify(res.body)).not.toContain("ada@example.com");
    }
    // An upsert or an array keyed by another column looks rows up by value and answers them.
    for (const [method, query, body, reason] of [
      ["POST", "upsert=id", [{ id: "2" }], /An upsert looks each row up/],
      ["POST", "upsert=email", { email: "ada@example.com", name: "Ada" }, /An upsert/],
      [
        "PATCH",
        "key=email",
        [{ email: "ada@example.com", name: "Ada" }],
        /an array keyed by a \?key= column other than id/,
      ],
    ] as const) {
      const res = await send(method, query, body, writeOnly);
      expect(res.status, `${method} ${query}`).toBe(403);
      expect(res.body.message).toMatch(reason);
      expect(JSON.stringify(res.body)).not.toContain("Grace");
    }
    expect(records().map((r) => r.name)).toEqual(["Ada", "Grace", "Alan", "Katherine", "Edsger"]);
    // Creating and bulk updates by id stay open to it.
    expect((await send("POST", "", { email: "new@example.com", name: "New" }, writeOnly)).status).toBe(201);
    expect((await send("PATCH", "", [{ id: "2", name: "Gracie" }], writeOnly)).status).toBe(200);
    expect((await send("PATCH", "key=id", [{ id: "3", name: "Alan" }], writeOnly)).status).toBe(200);
    expect(records().map((r) => r.name)).toEqual(["Ada", "Gracie", "Alan", "Katherine", "Edsger", "New"]);
  });

  it("refuses what can never succeed before reading the tab, and never ignores a parameter a write does not take", async () => {
    const googleCalls = () => [...svc.google.calls.values()].reduce((a, b) => a + b, 0);
    const before = googleCalls();
    for (const [method, query, body] of [
      ["DELETE", ""],
      ["DELETE", "filter=plan=free&limit=0"],
      ["PATCH", "", { plan: "x" }],
      ["PATCH", "filter=plan=free&dry_run=maybe", { plan: "x" }],
      ["POST", "bogus=1", { name: "x" }],
    ] as const) {
      expect((await send(method, query, body)).status, `${method} ${query}`).toBe(400);
    }
    expect(googleCalls()).toBe(before);
    const item = (method: "PUT" | "DELETE", query: string, body?: unknown) =>
      callRoute(instances[0]!.item[method], {
        method,
        path: `/api/v1/${sheetId}/Contacts/2?${query}`,
        params: { sheetId, tabName: "Contacts", rowId: "2" },
        headers: { "X-API-Key": key },
        body,
      });
    const dry = await item("DELETE", "dry_run=true");
    expect(dry.status).toBe(400);
    expect(dry.body.message).toBe(
      'Unknown query parameter "dry_run": nothing was written. This request takes no query parameters (dry_run=true applies to PATCH and DELETE on the tab with ?filter=).',
    );
    expect((await item("PUT", "bogus=1", { name: "Changed" })).status).toBe(400);
    expect(records().map((r) => r.name)).toEqual(["Ada", "Grace", "Alan", "Katherine", "Edsger"]);
    expect(googleCalls()).toBe(before);
  });

  it("a single-value parameter sent twice on a write answers 400 and changes nothing, as on reads", async () => {
    const googleCalls = () => [...svc.google.calls.values()].reduce((a, b) => a + b, 0);
    const before = googleCalls();
    const cases = [
      ["DELETE", "filter=plan=free&limit=5&dry_run=false&dry_run=true", undefined, "dry_run"],
      ["DELETE", "filter=plan=free&limit=1&limit=1000", undefined, "limit"],
      ["PATCH", "filter=plan=free&limit=5&dry_run=true&dry_run=false", { plan: "x" }, "dry_run"],
      ["PATCH", "key=email&key=id", [{ id: 2, name: "x" }], "key"],
      ["POST", "upsert=email&upsert=id", [{ email: "ada@example.com", name: "x" }], "upsert"],
    ] as const;
    for (const [method, query, body, name] of cases) {
      const res = await send(method, query, body);
      expect(res.status, `${method} ${query}`).toBe(400);
      expect(res.body.error).toBe("validation_error");
      expect(res.body.message).toBe(`The query parameter "${name}" was sent 2 times; it takes one value.`);
    }
    expect(records().map((r) => r.name)).toEqual(["Ada", "Grace", "Alan", "Katherine", "Edsger"]);
    expect(googleCalls()).toBe(before);
  });

  it("DELETE with a filter removes exactly the matching rows in one write", async () => {
    expect((await send("DELETE", "")).status).toBe(400);
    expect((await send("DELETE", "filter=plan=free")).status).toBe(409);
    const dry = await send("DELETE", "filter=plan=free&dry_run=true");
    expect(dry.body).toMatchObject({
      success: true,
      message: '2 row(s) of "Contacts" match; nothing was deleted (dry run).',
      data: { matched: 2, deleted: 0, ids: ["2", "3"] },
    });
    expect(records()).toHaveLength(5);
    const res = await send("DELETE", `filter=plan=free&or=${encodeURIComponent("score>=50,name=Ada")}&limit=3`);
    expect(res.body).toMatchObject({ success: true, message: '0 row(s) deleted from "Contacts".' });
    const both = await send("DELETE", `or=${encodeURIComponent("plan=free,score>=50")}&limit=3`);
    expect(both.body).toMatchObject({
      message: '3 row(s) deleted from "Contacts".',
      data: { deleted: 3, ids: ["2", "3", "5"] },
    });
    expect(batches()).toBe(1);
    expect(records().map((r) => r.id)).toEqual(["1", "4"]);
    // A tab without an id column: rows found as they are now, never a neighbour.
    expect((await send("DELETE", "filter=city=Paris&limit=2", undefined, {}, 0, "People")).body.data).toMatchObject({
      deleted: 2,
      ids: ["3", "4"],
    });
    expect(records("People")).toEqual([{ name: "Ada", city: "London" }]);
    // Every row under a frozen header, which Google refuses unless a row is left: a blank one is added in the same batch.
    expect((await send("DELETE", "filter=name!=", undefined, {}, 0, "People")).body.data).toMatchObject({
      deleted: 1,
      ids: ["2"],
    });
    expect(records("People")).toEqual([]);
  });

  it("PATCH with an array updates each row by its key with its own values, or nothing", async () => {
    const res = await send("PATCH", "", [
      { id: "1", score: 11 },
      { id: "3", score: 33, plan: "pro" },
    ]);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({
      updated: 2,
      rows: [
        { id: "1", score: "$11.00" },
        { id: "3", score: "$33.00", plan: "pro" },
      ],
    });
    const byEmail = await send("PATCH", "key=email", [
      { email: "grace@example.com", name: "Grace H." },
      { email: "kat@example.com", score: 44 },
    ]);
    expect(byEmail.body.data).toMatchObject({ updated: 2 });
    expect(batches()).toBe(2);
    expect(records().map((r) => `${r.name}:${r.score}`)).toEqual([
      "Ada:11",
      "Grace H.:20",
      "Alan:33",
      "Katherine:44",
      "Edsger:50",
    ]);
    const missing = await send("PATCH", "key=email", [
      { email: "ada@example.com", score: 1 },
      { email: "nobody@example.com", score: 2 },
    ]);
    expect(missing.status).toBe(404);
    expect(missing.body.message).toBe('No row of "Contacts" has email "nobody@example.com"; nothing was changed.');
    expect(records()[0]!.score).toBe("11");
    expect(
      (
        await send("PATCH", "", [
          { id: "1", score: 1 },
          { id: "1", score: 2 },
        ])
      ).body.message,
    ).toBe('"id" "1" appears twice in the body: each row is written once.');
    expect((await send("PATCH", "", [{ score: 1 }])).body.message).toMatch(/^Row 1 of the body has no "id"/);
    expect((await send("PATCH", "key=colour", [{ id: "1" }])).status).toBe(400);
  });

  it("upserts by a key column: matches updated cell by cell, the rest appended with new ids, in one write", async () => {
    const res = await send("POST", "upsert=email", [
      { email: "ada@example.com", score: 15 },
      { email: "barbara@example.com", name: "Barbara", plan: "free" },
    ]);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data).toMatchObject({
      created: 1,
      updated: 1,
      rows: [
        { id: "1", name: "Ada", score: "$15.00" },
        { id: "6", email: "barbara@example.com", name: "Barbara", score: "" },
      ],
    });
    expect(batches()).toBe(1);
    expect(records().map((r) => `${r.id}:${r.email}:${r.score}`)).toEqual([
      "1:ada@example.com:15",
      "2:grace@example.com:20",
      "3:alan@example.com:30",
      "4:kat@example.com:40",
      "5:edsger@example.com:50",
      "6:barbara@example.com:",
    ]);
    const again = await send("POST", "upsert=email", { email: "barbara@example.com", plan: "pro" });
    expect(again.status).toBe(200);
    expect(again.body.data).toMatchObject({ created: 0, updated: 1 });
    const byId = await send("POST", "upsert=id", [
      { id: "2", plan: "team" },
      { id: "40", email: "new@example.com" },
    ]);
    expect(byId.body.data).toMatchObject({ created: 1, updated: 1 });
    expect(records().at(-1)).toMatchObject({ id: "40", email: "new@example.com" });
    expect((await send("POST", "upsert=email", [{ name: "no key" }])).status).toBe(400);
    expect((await send("POST", "upsert=email", [{ email: "ada@example.com", id: "77" }])).body.message).toMatch(
      /id cannot be changed/,
    );
    expect((await send("POST", "upsert=id", [{ name: "x" }], {}, 0, "People")).body.message).toMatch(
      /has no id column/,
    );
  });

  it("replays a filtered write sent again with the same Idempotency-Key", async () => {
    const headers = { "Idempotency-Key": `bulk-${randomUUID()}` };
    const first = await send("DELETE", "filter=plan=team", undefined, headers);
    const again = await send("DELETE", "filter=plan=team", undefined, headers);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.body).toEqual(first.body);
    expect(batches()).toBe(1);
    expect((await send("DELETE", "filter=plan=pro&limit=2", undefined, headers)).status).toBe(409);
  });

  it("two instances racing upserts of one key write one row; racing filtered deletes remove each row once", async () => {
    const racers = await Promise.all([
      send("POST", "upsert=email", { email: "race@example.com", score: 100 }, {}, 0),
      send("POST", "upsert=email", { email: "race@example.com", name: "Racer" }, {}, 1),
    ]);
    expect(racers.map((r) => r.status).sort()).toEqual([200, 201]);
    const raced = records().filter((r) => r.email === "race@example.com");
    expect(raced).toHaveLength(1);
    expect(raced[0]).toMatchObject({ id: "6", score: "100", name: "Racer" });

    const deletes = await Promise.all([
      send("DELETE", "filter=plan=free&limit=2", undefined, {}, 0),
      send("DELETE", "filter=score<=30&limit=3", undefined, {}, 1),
    ]);
    expect(deletes.every((r) => r.status === 200)).toBe(true);
    const deleted = deletes.flatMap((r) => (r.body.data as { ids: string[] }).ids);
    expect(deleted.sort()).toEqual(["1", "2", "3"]);
    expect(records().map((r) => r.id)).toEqual(["4", "5", "6"]);

    const updates = await Promise.all([
      send("PATCH", "filter=id>=4&limit=3", { plan: "gold" }, {}, 0),
      send("PATCH", "filter=id>=5&limit=3", { name: "Same" }, {}, 1),
    ]);
    expect(updates.map((r) => r.status)).toEqual([200, 200]);
    expect(records().map((r) => `${r.id}:${r.plan}:${r.name}`)).toEqual([
      "4:gold:Katherine",
      "5:gold:Same",
      "6:gold:Same",
    ]);
  });

  it("answers rows as the sheet shows them, so their ETags are the next read's; each instance sees the other's writes", async () => {
    const written = await send("PATCH", "", [{ id: "5", score: 55 }], {}, 0);
    const other = instanceClient(instances[1]!, sheetId, key);
    const read = await other.get("Contacts", "5");
    expect(read.body.data).toMatchObject({ score: "$55.00" });
    expect(read.headers.get("etag")).toBe((written.body.data as { etags: string[] }).etags[0]);
  });
});
