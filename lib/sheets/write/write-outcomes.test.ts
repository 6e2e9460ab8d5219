// DECISIONS 5-7a with a slow and failing Google: every write route through each fault, alone and
// racing a second instance; then the spreadsheet itself shows no row written twice, no neighbour
// deleted, no acknowledged write undone, no shared id, and every 504 saying how to check.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createUser } from "@/db/queries/users";
import type { FaultSpec } from "@/emulators/google/faults";
import { EMULATOR_SERVICE_ACCOUNT } from "@/emulators/google/seed";
import { memoryStore, setLimitStore } from "@/lib/store/store";
import { instanceClient, startInstance, type InstanceClient, type Instance } from "@/testing/instances";
import {
  expectHonestAnswers,
  expectSheetMatches,
  storedRecords,
  storedRows,
  type Outcome,
} from "@/testing/sheet-audit";
import { startTestService, type TestService } from "@/testing/service";
import { registeredKey } from "@/testing/google";

const TIMEOUT_MS = 400;
let svc: TestService;
let instances: Instance[];

beforeAll(async () => {
  svc = await startTestService({
    env: { GOOGLE_REQUEST_TIMEOUT_MS: String(TIMEOUT_MS), GOOGLE_RETRY_BUDGET_MS: "1000" },
  });
  setLimitStore(memoryStore());
  instances = [await startInstance(), await startInstance()];
});
afterAll(async () => {
  setLimitStore(undefined);
  await svc.stop();
});
beforeEach(() => svc.google.faults.clear());

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const TAB = "Items";
const seedRows = () => [
  ["id", "name", "qty", "note"],
  ...Array.from({ length: 8 }, (_, i) => [i + 1, `seed ${i + 1}`, i + 1, ""]),
];

/** A fresh spreadsheet registered for writes, and a client on each of the two instances. */
async function freshSheet(
  tabs: {
    title: string;
    rows: unknown[][];
    columnFormats?: Record<string, { type: string; pattern: string }>;
    rowCount?: number;
    frozenRowCount?: number;
  }[] = [{ title: TAB, rows: seedRows() }],
): Promise<{ id: string; a: InstanceClient; b: InstanceClient }> {
  const id = String(
    (
      await svc.admin("/spreadsheets", {
        title: "Late Google",
        members: { [EMULATOR_SERVICE_ACCOUNT]: "writer" },
        tabs,
      })
    ).spreadsheetId,
  );
  // An account per sheet: registrations per account and hour are limited.
  const userId = (await createUser({ email: `late-google-${++serial}@example.com`, plan: "business" })).id;
  const key = await registeredKey({ id: userId, email: null }, id);
  return { id, a: instanceClient(instances[0]!, id, key), b: instanceClient(instances[1]!, id, key) };
}

const FAULTS: [string, Omit<FaultSpec, "route">, number][] = [
  // [name, fault, how long after the call its effect may still land]
  ["lands 1 s after the service gave up", { delayMs: TIMEOUT_MS + 1000 }, TIMEOUT_MS + 1300],
  ["lands 5 s after the service gave up", { delayMs: TIMEOUT_MS + 5000 }, TIMEOUT_MS + 5300],
  ["lands at once, answered after the service gave up", { answerDelayMs: TIMEOUT_MS + 1000 }, 200],
  ["applied, then answered 500", { status: 500, applied: true }, 200],
  ["answered 500, not applied", { status: 500 }, 200],
  // Google documents its 429 as a refusal before processing; a lost answer or a proxy's 429
  // cannot prove that, so a write is never sent again after one without a fence.
  ["applied, then answered 429", { status: 429, applied: true }, 200],
  ["answered 429, not applied", { status: 429 }, 200],
];

const arm = (fault: Omit<FaultSpec, "route">) => svc.google.faults.add({ route: "spreadsheets.batchUpdate", ...fault });
let serial = 0;
const unique = (what: string) => `${what} ${++serial}`;

async function create(client: InstanceClient, name: string): Promise<Outcome> {
  const res = await client.create(TAB, { name, qty: 1 });
  return { kind: "create", name, status: res.status, body: res.body };
}
async function createMany(client: InstanceClient, names: string[]): Promise<Outcome[]> {
  const res = await client.create(
    TAB,
    names.map((name) => ({ name })),
  );
  return names.map((name) => ({ kind: "create", name, status: res.status, body: res.body }));
}
async function update(
  client: InstanceClient,
  id: string,
  field: string,
  value: string,
  method: "update" | "patch" = "update",
): Promise<Outcome> {
  const res = await client[method](TAB, id, { [field]: value });
  return { kind: "update", id, field, value, status: res.status, body: res.body };
}
async function remove(client: InstanceClient, id: string): Promise<Outcome> {
  const res = await client.remove(TAB, id);
  return { kind: "delete", id, status: res.status, body: res.body };
}

describe.each(FAULTS)("Google's write %s", (_name, fault, landsWithinMs) => {
  it("create one: in the sheet exactly once when 201, with its id", async () => {
    const { id, a, b } = await freshSheet();
    arm(fault);
    const outcomes = [await create(a, unique("one"))];
    // Later creates from the other instance must not be taken for it, nor share its id.
    outcomes.push(await create(b, unique("after")), await create(b, unique("after")));
    await sleep(landsWithinMs);
    expectHonestAnswers(outcomes);
    expect(outcomes.every((o) => o.status === 201)).toBe(true);
    expectSheetMatches(storedRecords(svc.google, id, TAB), outcomes, storedRecords(svc.google, id, TAB).slice(0, 8));
  });

  it("create many: all rows once, or none", async () => {
    const { id, a, b } = await freshSheet();
    arm(fault);
    const outcomes = await createMany(a, [unique("bulk"), unique("bulk"), unique("bulk")]);
    outcomes.push(await create(b, unique("after")));
    await sleep(landsWithinMs);
    expectHonestAnswers(outcomes);
    expectSheetMatches(storedRecords(svc.google, id, TAB), outcomes);
    expect(storedRecords(svc.google, id, TAB)).toHaveLength(12);
  });

  it.each(["update", "patch"] as const)("%s: never undoes a later acknowledged update", async (method) => {
    const { id, a, b } = await freshSheet();
    const untouched = storedRecords(svc.google, id, TAB).filter((r) => r.id !== "3");
    arm(fault);
    const first = await update(a, "3", "note", "first", method);
    const second = await update(b, "3", "note", "second", method);
    await sleep(landsWithinMs);
    expectHonestAnswers([first, second]);
    expect(second.status).toBe(200);
    const row = storedRecords(svc.google, id, TAB).find((r) => r.id === "3")!;
    expect(row.note).toBe("second");
    expectSheetMatches(storedRecords(svc.google, id, TAB), [first, second], untouched);
  });

  it("delete: removes its row, never a neighbour, even with deletes after it", async () => {
    const { id, a, b } = await freshSheet();
    arm(fault);
    const outcomes = [await remove(a, "3")];
    outcomes.push(await remove(b, "5"));
    await sleep(landsWithinMs);
    expectHonestAnswers(outcomes);
    const records = storedRecords(svc.google, id, TAB);
    expect(outcomes.map((o) => o.status)).toEqual([200, 200]);
    expect(records.map((r) => r.id)).toEqual(["1", "2", "4", "6", "7", "8"]);
  });

  it("racing writes from two instances: every rule holds on the sheet", async () => {
    const { id, a, b } = await freshSheet();
    const before = storedRecords(svc.google, id, TAB);
    arm({ ...fault, count: 2 });
    const runs = await Promise.all([
      create(a, unique("race")),
      create(b, unique("race")),
      createMany(a, [unique("race"), unique("race")]),
      update(b, "2", "note", "from b"),
      update(a, "2", "qty", "22"),
      remove(a, "4"),
      remove(b, "6"),
      b
        .create(TAB, { id: 50, name: "explicit 50" })
        .then((res): Outcome => ({ kind: "create", name: "explicit 50", status: res.status, body: res.body })),
      create(a, unique("race")),
    ]);
    const outcomes = runs.flat();
    await sleep(landsWithinMs);
    expectHonestAnswers(outcomes);
    const records = storedRecords(svc.google, id, TAB);
    const untouched = before.filter((r) => !["2", "4", "6"].includes(r.id!));
    expectSheetMatches(records, outcomes, untouched);
    const row2 = records.find((r) => r.id === "2")!;
    for (const o of outcomes.filter((x) => x.kind === "update" && x.status === 200))
      expect(row2[o.field!]).toBe(o.value);
    // Generated ids never collide with the explicit one, nor with each other.
    expect(records.filter((r) => r.id === "50")).toHaveLength(
      outcomes.find((o) => o.name === "explicit 50")!.status === 201 ? 1 : 0,
    );
  });
});

describe("when Google stops answering for a while", () => {
  const googleDown = () => svc.google.faults.add({ route: "spreadsheets.batchUpdate", status: 500, count: -1 });

  it("a create whose write landed answers 504 saying how to check; the next write settles it; a retry with the Idempotency-Key gets the rows without writing them again", async () => {
    const { id, a, b } = await freshSheet();
    // The write lands but its answer fails; every fence fails too: the outcome stays unknown.
    svc.google.faults.add({ route: "spreadsheets.batchUpdate", status: 500, applied: true });
    googleDown();
    const headers = { "Idempotency-Key": "create-once-1" };
    const first = await a.create(TAB, { name: "unknown outcome" }, headers);
    expect(first.status).toBe(504);
    expect(String(first.body.message)).toMatch(
      /outcome is unknown.*Check with GET \/api\/v1\/.+\/Items\/9.*same Idempotency-Key/,
    );
    // While Google fails, nothing else is written to the tab: its earlier write is unsettled.
    const blocked = await b.update(TAB, "1", { note: "blocked" });
    expect(blocked.status).toBe(503);
    svc.google.faults.clear();
    const retry = await b.create(TAB, { name: "unknown outcome" }, headers);
    expect(retry.status).toBe(201);
    // The first request's answer, as a replay is.
    expect(retry.headers.get("idempotent-replayed")).toBe("true");
    expect((retry.body.data as { rows: { id: string }[] }).rows[0]!.id).toBe("9");
    expect(storedRecords(svc.google, id, TAB).filter((r) => r.name === "unknown outcome")).toHaveLength(1);
    expect(storedRecords(svc.google, id, TAB).find((r) => r.id === "1")!.note).toBe("");
  });

  it("a create that never landed is written once by the retry with the same Idempotency-Key", async () => {
    const { id, a, b } = await freshSheet();
    googleDown();
    const headers = { "Idempotency-Key": "create-once-2" };
    const first = await a.create(TAB, [{ name: "never landed a" }, { name: "never landed b" }], headers);
    expect(first.status).toBe(504);
    expect(String(first.body.message)).toContain("(ids 9, 10)");
    svc.google.faults.clear();
    const retry = await b.create(TAB, [{ name: "never landed a" }, { name: "never landed b" }], headers);
    expect(retry.status).toBe(201);
    expect(retry.headers.get("idempotent-replayed")).toBeNull();
    // Written with the ids the 504 named, so the GET it advised finds the row.
    expect((retry.body.data as { rows: { id: string }[] }).rows.map((r) => r.id)).toEqual(["9", "10"]);
    const names = storedRecords(svc.google, id, TAB).map((r) => r.name);
    expect(names.filter((n) => n!.startsWith("never landed"))).toEqual(["never landed a", "never landed b"]);
    // The same key again: the stored answer, nothing written.
    const replay = await a.create(TAB, [{ name: "never landed a" }, { name: "never landed b" }], headers);
    expect([replay.status, replay.body]).toEqual([201, retry.body]);
    expect(storedRecords(svc.google, id, TAB)).toHaveLength(10);
  });

  it("an update and a delete answer 504 while unsettled, and never reach another row", async () => {
    const { id, a, b } = await freshSheet();
    googleDown();
    const outcomes = [await update(a, "2", "note", "maybe"), await remove(b, "3")];
    expect(outcomes.map((o) => o.status)).toEqual([504, 503]);
    expectHonestAnswers(outcomes);
    svc.google.faults.clear();
    const after = await remove(b, "4");
    expect(after.status).toBe(200);
    expect(storedRecords(svc.google, id, TAB).map((r) => r.id)).toEqual(["1", "2", "3", "5", "6", "7", "8"]);
  });

  it("after an update whose outcome is unknown, reads never serve the copy from before it, not even stale", async () => {
    const { a } = await freshSheet();
    expect((await a.get(TAB, "2")).status).toBe(200); // cached
    svc.google.faults.add({ route: "spreadsheets.batchUpdate", status: 500, applied: true });
    googleDown();
    expect((await update(a, "2", "note", "landed")).status).toBe(504);
    // Google's reads fail too: the copy from before the write would say note "" (it is "landed").
    for (const route of ["values.get", "values.batchGet"]) svc.google.faults.add({ route, status: 503, count: -1 });
    const read = await a.get(TAB, "2");
    expect(read.status).toBe(503);
    expect(read.headers.get("x-cache")).toBeNull();
  });
});

it("an update Google applies after someone changed which row holds the id answers 409, never 200", async () => {
  const { id, a } = await freshSheet();
  // Google applies the write 300 ms after it arrives; meanwhile the owner swaps rows 2 and 3 by retyping them.
  svc.google.faults.add({ route: "spreadsheets.batchUpdate", delayMs: 300, count: 1 });
  const pending = a.update(TAB, "2", { note: "for id 2" });
  await sleep(150);
  await svc.admin(`/spreadsheets/${id}/values`, {
    range: `'${TAB}'!A3:D4`,
    values: [
      [3, "seed 3", 3, ""],
      [2, "seed 2", 2, ""],
    ],
  });
  const res = await pending;
  expect(res.status).toBe(409);
  expect(res.body).toMatchObject({ success: false, error: "conflict" });
  expect(String(res.body.message)).toMatch(/row 3 of "Items" held id "3".*Row "2" was not changed/);
});

it(
  "a create and a delete landing 30 s after the service gave up change nothing they should not",
  { timeout: 60_000 },
  async () => {
    const { id, a, b } = await freshSheet();
    svc.google.faults.add({ route: "spreadsheets.batchUpdate", delayMs: 30_000, count: 2 });
    const outcomes = await Promise.all([create(a, unique("thirty")), remove(b, "2")]);
    outcomes.push(await remove(a, "3"), await create(b, unique("after thirty")));
    await sleep(31_000);
    expectHonestAnswers(outcomes);
    expectSheetMatches(storedRecords(svc.google, id, TAB), outcomes);
    expect(
      storedRecords(svc.google, id, TAB)
        .map((r) => r.id)
        .slice(0, 6),
    ).toEqual(["1", "4", "5", "6", "7", "8"]);
  },
);

describe("where created rows land", () => {
  it("after the last row of data, past a blank row in the middle, ids right, no row moved", async () => {
    const rows = [["id", "name"], [1, "a"], [2, "b"], [], [4, "d"], [5, "e"]];
    const { id, a } = await freshSheet([{ title: TAB, rows }]);
    const res = await a.create(TAB, [{ name: "f" }, { name: "g" }]);
    expect(res.status).toBe(201);
    expect((res.body.data as { rows: { id: string }[] }).rows.map((r) => r.id)).toEqual(["6", "7"]);
    expect(storedRows(svc.google, id, TAB)).toEqual([
      ["id", "name"],
      [1, "a"],
      [2, "b"],
      [],
      [4, "d"],
      [5, "e"],
      [6, "f"],
      [7, "g"],
    ]);
  });

  it("after the last row of data when A1 is blank, without touching the header", async () => {
    const rows = [
      [null, "name", "id"],
      [null, "a", 1],
      [null, "b", 2],
    ];
    const { id, a } = await freshSheet([{ title: TAB, rows }]);
    const res = await a.create(TAB, { name: "c" });
    expect(res.status).toBe(201);
    expect((res.body.data as { rows: Record<string, string>[] }).rows).toEqual([{ name: "c", id: "3" }]);
    expect(storedRows(svc.google, id, TAB)).toEqual([
      [null, "name", "id"],
      [null, "a", 1],
      [null, "b", 2],
      [null, "c", 3],
    ]);
  });

  it("after a tab of row-number ids with a blank row, with the row numbers they landed at", async () => {
    const rows = [["name", "role"], ["Ada", "x"], [], ["Grace", "y"]];
    const { id, a } = await freshSheet([{ title: TAB, rows }]);
    const res = await a.create(TAB, { name: "Katherine" });
    expect((res.body.data as { rows: Record<string, string>[] }).rows).toEqual([
      { id: "5", name: "Katherine", role: "" },
    ]);
    expect(storedRows(svc.google, id, TAB)[4]).toEqual(["Katherine", null]);
  });
});

describe("row-number ids (a tab without an id column)", () => {
  const rows = [
    ["name", "role"],
    ["Ada", "engineer"],
    ["Grace", "admiral"],
    ["Katherine", "mathematician"],
    ["Alan", "logician"],
  ];

  it("with If-Match, a PUT or DELETE whose row moved (rows above deleted) answers 412 and writes nothing", async () => {
    const { id, a, b } = await freshSheet([{ title: TAB, rows }]);
    const read = await a.get(TAB, "4");
    expect(read.body.data).toMatchObject({ name: "Katherine" });
    const etag = read.headers.get("etag")!;
    expect((await b.remove(TAB, "2")).status).toBe(200); // Katherine is now row 3, Alan row 4
    const before = storedRows(svc.google, id, TAB);
    const put = await a.update(TAB, "4", { role: "changed" }, { "If-Match": etag });
    const del = await a.remove(TAB, "4", { "If-Match": etag });
    expect([put.status, del.status]).toEqual([412, 412]);
    expect(String(put.body.message)).toMatch(/another row now has this row number/);
    expect(storedRows(svc.google, id, TAB)).toEqual(before);
  });

  it("with If-Match, a PUT Google applies after the row was retyped answers 409, never 200", async () => {
    const { id, a } = await freshSheet([{ title: TAB, rows }]);
    const etag = (await a.get(TAB, "4")).headers.get("etag")!;
    svc.google.faults.add({ route: "spreadsheets.batchUpdate", delayMs: 300, count: 1 });
    const pending = a.update(TAB, "4", { role: "changed" }, { "If-Match": etag });
    await sleep(150);
    // Rows 3 and 4 swapped by retyping them while Google applies the update.
    await svc.admin(`/spreadsheets/${id}/values`, {
      range: `'${TAB}'!A3:B4`,
      values: [
        ["Katherine", "mathematician"],
        ["Grace", "admiral"],
      ],
    });
    const res = await pending;
    expect(res.status).toBe(409);
    expect(String(res.body.message)).toMatch(/row 4 of "Items" no longer matched If-Match \(name changed meanwhile\)/);
  });

  it("with If-Match, a DELETE waiting for the tab behind a delete above it answers 412, never deleting the next row", async () => {
    const { id, a, b } = await freshSheet([{ title: TAB, rows }]);
    const etag = (await a.get(TAB, "3")).headers.get("etag")!;
    // The first delete is slow, so the second waits for the tab while the rows above move.
    svc.google.faults.add({ route: "spreadsheets.batchUpdate", answerDelayMs: 200 });
    const [above, guarded] = await Promise.all([
      b.remove(TAB, "2"),
      sleep(50).then(() => a.remove(TAB, "3", { "If-Match": etag })),
    ]);
    expect([above.status, guarded.status]).toEqual([200, 412]);
    expect(storedRecords(svc.google, id, TAB).map((r) => r.name)).toEqual(["Grace", "Katherine", "Alan"]);
  });

  it("with a matching If-Match it writes; without one it acts on the row now at that number", async () => {
    const { id, a } = await freshSheet([{ title: TAB, rows }]);
    const etag = (await a.get(TAB, "2")).headers.get("etag")!;
    expect((await a.update(TAB, "2", { role: "countess" }, { "If-Match": etag })).status).toBe(200);
    expect((await a.remove(TAB, "2")).status).toBe(200);
    // Row 2 is now Grace: without If-Match the update reaches her, as the docs say.
    expect((await a.update(TAB, "2", { role: "rear admiral" })).body.data).toMatchObject({
      id: "2",
      name: "Grace",
      role: "rear admiral",
    });
    expect(storedRecords(svc.google, id, TAB).map((r) => r.name)).toEqual(["Grace", "Katherine", "Alan"]);
  });
});

it("answers a PUT with the row as the sheet shows it, so its ETag is the next read's and If-Match with it succeeds", async () => {
  const priced = {
    title: "Priced",
    rows: [
      ["id", "name", "price"],
      [1, "Lamp", 24.5],
    ],
    columnFormats: { price: { type: "CURRENCY", pattern: '"$"#,##0.00' } },
  };
  const { a } = await freshSheet([priced]);
  const put = await a.update("Priced", "1", { price: 5 });
  expect(put.status).toBe(200);
  expect(put.body.data).toMatchObject({ id: "1", price: "$5.00" });
  const read = await a.get("Priced", "1");
  expect(read.body.data).toEqual(put.body.data);
  expect(put.headers.get("etag")).toBe(read.headers.get("etag"));
  const again = await a.update("Priced", "1", { name: "Desk lamp" }, { "If-Match": put.headers.get("etag")! });
  expect(again.status).toBe(200);
  expect(again.body.data).toMatchObject({ name: "Desk lamp", price: "$5.00" });
});

it("deletes the only row under a frozen header, which Google refuses as deleting every non-frozen row", async () => {
  const { id, a } = await freshSheet([
    {
      title: "Single",
      rows: [
        ["id", "name"],
        [1, "Only"],
      ],
      rowCount: 2,
      frozenRowCount: 1,
    },
  ]);
  const del = await a.remove("Single", "1");
  expect(del.status).toBe(200);
  expect(storedRows(svc.google, id, "Single")).toEqual([["id", "name"]]);
  expect((await a.list("Single")).body.data).toEqual([]);
  expect((await a.create("Single", { name: "Next" })).status).toBe(201);
});

it("leaves no write markers behind: each batch clears the tab's settled ones", async () => {
  const { id, a } = await freshSheet();
  for (let i = 0; i < 5; i++) await create(a, unique("marker"));
  await update(a, "1", "note", "x");
  await remove(a, "2");
  const markers = (svc.google.store.get(id)!.developerMetadata ?? []).filter((m) => m.metadataKey === "sheetapi.write");
  expect(markers).toHaveLength(1); // the last write's own
});
