// Column names come from users, so rows are never plain prototype objects: columns named after
// Object.prototype's members (constructor, toString, __proto__, ...) read, write and hash like
// any other column.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser } from "@/db/queries/users";
import { memoryStore, setLimitStore } from "@/lib/store/store";
import { rowsClient } from "@/testing/rows-client";
import { startTestService, type TestService } from "@/testing/service";
import { registeredKey } from "@/testing/google";

let svc: TestService;
let api: ReturnType<typeof rowsClient>;
const HEADER = ["id", "constructor", "toString", "__proto__", "valueOf", "hasOwnProperty"];

beforeAll(async () => {
  svc = await startTestService();
  setLimitStore(memoryStore());
  const user = await createUser({ email: "proto@example.com", plan: "business" });
  const id = String(
    (
      await svc.admin("/spreadsheets", {
        title: "Prototype names",
        members: { "sheetapi-local@sheetapi-local.iam.gserviceaccount.com": "writer" },
        tabs: [{ title: "T", rows: [HEADER, [1, "c1", "t1", "p1", "v1", "h1"]] }],
      })
    ).spreadsheetId,
  );
  api = rowsClient(id, await registeredKey(user, id));
});
afterAll(async () => {
  setLimitStore(undefined);
  await svc.stop();
});

const own = (row: unknown) => JSON.stringify(row);

describe("columns named like Object.prototype members", () => {
  it("read as the sheet's values", async () => {
    const res = await api.get("T", "1");
    expect(own(res.body.data)).toBe(
      '{"id":"1","constructor":"c1","toString":"t1","__proto__":"p1","valueOf":"v1","hasOwnProperty":"h1"}',
    );
    const selected = await api.list("T", "select=__proto__,toString");
    expect(own((selected.body.data as unknown[])[0])).toBe('{"id":"1","toString":"t1","__proto__":"p1"}');
  });

  it("are written only when named, and answered as written", async () => {
    const created = await api.create("T", { constructor: "c2" });
    expect(created.status).toBe(201);
    const row = (created.body.data as { rows: unknown[] }).rows[0];
    expect(own(row)).toMatch(
      /^\{"id":"\d+","constructor":"c2","toString":"","__proto__":"","valueOf":"","hasOwnProperty":""\}$/,
    );
    const id = JSON.parse(own(row)).id as string;

    const updated = await api.update("T", id, JSON.parse('{"__proto__":"p2","toString":"t2"}'));
    expect(updated.status).toBe(200);
    expect(own(updated.body.data)).toBe(
      `{"id":"${id}","constructor":"c2","toString":"t2","__proto__":"p2","valueOf":"","hasOwnProperty":""}`,
    );
    const read = await api.get("T", id);
    expect(own(read.body.data)).toBe(own(updated.body.data));
    // The update's ETag is the row's: the next read's.
    expect(updated.headers.get("etag")).toBe(read.headers.get("etag"));
  });
});
