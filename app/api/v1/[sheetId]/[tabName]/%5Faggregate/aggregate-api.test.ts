// Aggregates end to end through the route handlers, against a copy of the demo sheet in
// emulators/google, on every limit store: count, sum/avg/min/max of currency and number columns
// read as values, group_by one or two columns, filters honoured, distinct values for dropdowns,
// answered from the cached copy (no Google call), and 400s naming what cannot be read.
import { randomUUID } from "node:crypto";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createUser } from "@/db/queries/users";
import { DEMO_SPREADSHEET_ID, GERMAN_SPREADSHEET_ID } from "@/emulators/google/seed";
import { setLimitStore } from "@/lib/store/store";
import { callRoute } from "@/testing/routes";
import type { TestService } from "@/testing/service";
import { serviceAndStores } from "@/testing/stores";
import { registeredKey } from "@/testing/google";

let svc: TestService;
const stores = await serviceAndStores((s) => (svc = s), { env: { CHANGE_CHECK_INTERVAL_MS: "600000" } });
beforeEach(() => svc.google.calls.clear());

describe.each(stores)("on the %s store", (storeName, makeStore) => {
  const keys = new Map<string, string>();
  const call = async (sheetId: string, tab: string, kind: "aggregate" | "distinct", query: string) => {
    const mod =
      kind === "aggregate"
        ? await import("@/app/api/v1/[sheetId]/[tabName]/%5Faggregate/route")
        : await import("@/app/api/v1/[sheetId]/[tabName]/%5Fdistinct/route");
    return callRoute(mod.GET, {
      path: `/api/v1/${sheetId}/${encodeURIComponent(tab)}/_${kind}?${query}`,
      params: { sheetId, tabName: tab },
      headers: { "X-API-Key": keys.get(sheetId)! },
    });
  };
  let demo: string;
  let german: string;

  beforeAll(async () => {
    setLimitStore(makeStore());
    const user = await createUser({ email: `aggregate-${storeName}-${randomUUID()}@example.com`, plan: "business" });
    for (const source of [DEMO_SPREADSHEET_ID, GERMAN_SPREADSHEET_ID]) {
      const id = String((await svc.admin(`/spreadsheets/${source}/copy`, {})).spreadsheetId);
      await svc.admin(`/spreadsheets/${id}/access`, { members: { "owner@example.com": "writer" } }, "PATCH");
      keys.set(id, await registeredKey(user, id));
    }
    [demo, german] = [...keys.keys()] as [string, string];
  });

  it("counts, sums and averages currency and number columns by value", async () => {
    const res = await call(demo, "Products", "aggregate", "aggregate=count,sum:price,avg:price,min:price,max:rating");
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toEqual([
      {
        group: {},
        count: 6,
        sum: { price: 816.49 },
        avg: { price: 136.081666666667 },
        min: { price: 19 },
        max: { rating: 4.8 },
      },
    ]);
    expect(res.body.meta).toEqual({ groups: 1, rows: 6, limit: 1000, offset: 0, returned: 1 });
    const none = await call(demo, "Products", "aggregate", "aggregate=count,sum:price&filter=price%3E10000");
    expect(none.body.data).toEqual([{ group: {}, count: 0, sum: { price: null } }]);
  });

  it("groups by one or two columns, in value order, honouring filter and or", async () => {
    const byStock = await call(demo, "Products", "aggregate", "group_by=in_stock&aggregate=count,sum:price,avg:rating");
    expect(byStock.body.data).toEqual([
      { group: { in_stock: "FALSE" }, count: 2, sum: { price: 124.99 }, avg: { rating: 4 } },
      { group: { in_stock: "TRUE" }, count: 4, sum: { price: 691.5 }, avg: { rating: 4.6 } },
    ]);
    const filtered = await call(
      demo,
      "Products",
      "aggregate",
      `group_by=in_stock&filter=${encodeURIComponent("price>=50")}&or=${encodeURIComponent("rating>=4.5,in_stock=FALSE")}`,
    );
    expect(filtered.body.data).toEqual([
      { group: { in_stock: "FALSE" }, count: 1 },
      { group: { in_stock: "TRUE" }, count: 1 },
    ]);
    expect(filtered.body.meta).toMatchObject({ groups: 2, rows: 2 });
    const two = await call(demo, "Team Members", "aggregate", "group_by=role,active&limit=2&offset=1&typed=true");
    expect(two.body.data).toEqual([
      { group: { role: "Research", active: false }, count: 1 },
      { group: { role: "Research", active: true }, count: 1 },
    ]);
    expect(two.body.meta).toEqual({ groups: 3, rows: 4, limit: 2, offset: 1, returned: 2 });
  });

  it("reads a de_DE sheet's numbers in its locale", async () => {
    const res = await call(german, "Bestellungen", "aggregate", "aggregate=sum:preis,max:menge");
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const [only] = res.body.data as { sum: { preis: number }; max: { menge: number } }[];
    expect(typeof only!.sum.preis).toBe("number");
    expect(only!.sum.preis).toBeGreaterThan(24.5);
  });

  it("lists distinct values for dropdowns, filtered, and answers from the cached copy", async () => {
    expect((await call(demo, "Team Members", "distinct", "column=role")).body).toMatchObject({
      success: true,
      data: ["Engineering", "Research"],
      meta: { total: 2, returned: 2 },
    });
    expect((await call(demo, "Products", "distinct", "column=in_stock&filter=price%3C50")).body.data).toEqual([
      "FALSE",
      "TRUE",
    ]);
    expect((await call(demo, "Products", "distinct", "column=price&typed=true&limit=3")).body.data).toEqual([
      19, 24.5, 35,
    ]);
    svc.google.calls.clear();
    const again = await call(demo, "Products", "aggregate", "group_by=in_stock");
    expect(again.headers.get("x-cache")).toBe("HIT");
    expect(again.headers.get("age")).toMatch(/^\d+$/);
    expect(svc.google.calls.get("values.get") ?? 0).toBe(0);
    expect(svc.google.calls.get("values.batchGet") ?? 0).toBe(0);
  });

  it("answers 400 naming what cannot be read", async () => {
    const refused = async (kind: "aggregate" | "distinct", query: string) => {
      const res = await call(demo, "Products", kind, query);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ success: false, error: "validation_error" });
      return res.body.message;
    };
    expect(await refused("aggregate", "aggregate=sum:name")).toBe(
      'sum needs a number, currency or percent column; "name" is string.',
    );
    expect(await refused("aggregate", "aggregate=median:price")).toMatch(/^Cannot read "median:price" in aggregate/);
    expect(await refused("aggregate", "aggregate=sum:colour")).toMatch(/^Unknown aggregate column "colour"/);
    expect(await refused("aggregate", "group_by=colour")).toMatch(/^Unknown group_by column "colour"/);
    expect(await refused("aggregate", "sort=price")).toMatch(/^Unknown query parameter "sort"/);
    expect(await refused("aggregate", "limit=10001")).toMatch(/^limit must be an integer from 1 to 10000/);
    expect(await refused("distinct", "")).toMatch(/^column is required/);
    expect(await refused("distinct", "column=colour")).toMatch(/^Unknown column "colour"/);
  });
});
