// The richer filter language and multi-column sort, end to end through the route handlers against
// a copy of the demo sheet in emulators/google, on every limit store: OR groups across columns,
// case-insensitive equality with * wildcards, empty and not empty, lists of numbers and dates
// compared by value, date ranges by value, several sort keys; and clear 400s for what cannot be read.
import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { createUser } from "@/db/queries/users";
import { DEMO_SPREADSHEET_ID } from "@/emulators/google/seed";
import { setLimitStore } from "@/lib/store/store";
import { rowsClient } from "@/testing/rows-client";
import type { TestService } from "@/testing/service";
import { serviceAndStores } from "@/testing/stores";
import { registeredKey } from "@/testing/google";

let svc: TestService;
const stores = await serviceAndStores((s) => (svc = s));

describe.each(stores)("on the %s store", (storeName, makeStore) => {
  let api: ReturnType<typeof rowsClient>;
  const ids = async (query: string) => {
    const res = await api.list("Products", query);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return (res.body.data as { id: string }[]).map((r) => r.id);
  };
  const refused = async (query: string) => {
    const res = await api.list("Products", query);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, error: "validation_error" });
    return String(res.body.message);
  };

  beforeAll(async () => {
    setLimitStore(makeStore());
    const sheetId = String((await svc.admin(`/spreadsheets/${DEMO_SPREADSHEET_ID}/copy`, {})).spreadsheetId);
    await svc.admin(`/spreadsheets/${sheetId}/access`, { members: { "owner@example.com": "writer" } }, "PATCH");
    const user = await createUser({ email: `filters-${storeName}-${randomUUID()}@example.com`, plan: "business" });
    api = rowsClient(sheetId, await registeredKey(user, sheetId));
  });

  it("keeps every condition of the current syntax as it was", async () => {
    expect(await ids(`filter=${encodeURIComponent("in_stock=TRUE,price>=20")}&sort=price&order=desc`)).toEqual([
      "2",
      "4",
      "1",
    ]);
    expect(await ids("filter=name~DESK")).toEqual(["1", "2"]);
    expect(await ids("filter=id=1|3")).toEqual(["1", "3"]);
  });

  it("ORs the conditions of an `or` parameter, across columns, ANDed with filter and other groups", async () => {
    expect(await ids(`or=${encodeURIComponent("name~=*lamp*,price<20")}`)).toEqual(["1", "5"]);
    expect(await ids(`filter=in_stock=FALSE&or=${encodeURIComponent("rating>=4,price<40")}`)).toEqual(["3", "6"]);
    expect(
      await ids(`or=${encodeURIComponent("name~=*desk*,notes~=*desk*")}&or=${encodeURIComponent("price<100")}`),
    ).toEqual(["1", "5"]);
    expect((await api.list("Products", `or=${encodeURIComponent("price<20,price>300")}`)).body.meta).toMatchObject({
      total: 2,
    });
  });

  it("compares case-insensitively with ~=, * standing for any text (prefix, suffix, contains)", async () => {
    expect(await ids("filter=name~=DESK%20LAMP")).toEqual(["1"]);
    expect(await ids("filter=name~=desk%20lamp|FOOTREST")).toEqual(["1", "6"]);
    expect(await ids("filter=name~=desk*")).toEqual(["1"]);
    expect(await ids("filter=name~=*desk")).toEqual(["2"]);
    expect(await ids("filter=notes~=*desk*")).toEqual(["5"]);
    expect(await ids("filter=name~=*")).toEqual(["1", "2", "3", "4", "5", "6"]);
  });

  it("matches empty cells with column= and filled ones with column!=", async () => {
    expect(await ids("filter=notes=")).toEqual(["2", "4", "6"]);
    expect(await ids("filter=notes!=")).toEqual(["1", "3", "5"]);
    expect(await ids("filter=rating=")).toEqual(["5"]);
  });

  it("lists numbers and dates by value (in and not in)", async () => {
    expect(await ids("filter=price=24.5|399")).toEqual(["1", "2"]);
    expect(await ids(`filter=${encodeURIComponent("price=$24.50|399.00")}`)).toEqual(["1", "2"]);
    expect(await ids("filter=price!=24.5|399")).toEqual(["3", "4", "5", "6"]);
    expect(await ids("filter=released=2024-02-13|2024-04-18")).toEqual(["2", "3"]);
  });

  it("matches ids exactly, as the row route does: 05 and 5.0 are not row 5", async () => {
    expect(await ids("filter=id=5")).toEqual(["5"]);
    expect(await ids("filter=id=05|5.0")).toEqual([]);
    expect(await ids("filter=id!=05")).toEqual(["1", "2", "3", "4", "5", "6"]);
    expect(await ids("filter=id>=5")).toEqual(["5", "6"]);
  });

  it("compares date columns by the date, not the text", async () => {
    expect(await ids("filter=released>=2024-04-01")).toEqual(["3", "5", "6"]);
    expect(await ids("filter=released<2024-01-01")).toEqual(["4"]);
    expect(await ids(`filter=${encodeURIComponent("released>=2024-01-01,released<2024-03-01")}`)).toEqual(["1", "2"]);
    const placed = await api.list(
      "Orders",
      `filter=${encodeURIComponent("placed_at>2024-01-20T12:00:00Z")}&select=order_ref`,
    );
    expect((placed.body.data as { order_ref: string }[]).map((r) => r.order_ref)).toEqual(["A-1002", "A-1003"]);
  });

  it("sorts by several columns, one direction each or one for all", async () => {
    expect(await ids("sort=in_stock,price&order=asc,desc")).toEqual(["3", "6", "2", "4", "1", "5"]);
    expect(await ids("sort=in_stock,price&order=desc")).toEqual(["2", "4", "1", "5", "3", "6"]);
    expect(await ids("sort=in_stock,rating")).toEqual(["6", "3", "4", "1", "2", "5"]);
    expect(await ids("sort=in_stock,price&order=asc,desc&limit=2&offset=1")).toEqual(["6", "2"]);
  });

  it("answers 400 naming the problem", async () => {
    expect(await refused("or=colour=red")).toBe(
      'Unknown filter column "colour". Columns: id, name, price, in_stock, released, rating, notes.',
    );
    expect(await refused("sort=price&order=asc,desc")).toBe(
      "order gives 2 directions for 1 sort columns: give one, or one per column.",
    );
    expect(await refused("sort=price,colour")).toBe(
      'Unknown sort column "colour". Columns: id, name, price, in_stock, released, rating, notes.',
    );
    expect(await refused("sort=price,price")).toBe('sort names a column twice: "price,price".');
    expect(await refused("order=asc,desc")).toBe("order lists several directions but sort names no column.");
    expect(await refused("order=up")).toBe(
      'order must be asc or desc (lower case), or one of them per sort column; got "up".',
    );
    expect(await refused("or=price")).toMatch(/^Cannot read the filter condition "price"/);
  });
});
