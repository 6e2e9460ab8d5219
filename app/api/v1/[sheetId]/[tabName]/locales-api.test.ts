// Sheets in their own locale, end to end through the route handlers: a de_DE sheet's "1.234,5"
// is 1234.5 and "24,50 €" is 24.5, dates become ISO 8601 with the sheet's time-zone offset, and
// filters and sort compare numbers and dates by value, never by display text; likewise for
// fr_FR and en_US. On every limit store the integration tests run against.
import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { createUser } from "@/db/queries/users";
import { GERMAN_SPREADSHEET_ID } from "@/emulators/google/seed";
import { setLimitStore } from "@/lib/store/store";
import { rowsClient } from "@/testing/rows-client";
import { callRoute } from "@/testing/routes";
import type { TestService } from "@/testing/service";
import { serviceAndStores } from "@/testing/stores";
import { registeredKey } from "@/testing/google";

let svc: TestService;
const SA = "sheetapi-local@sheetapi-local.iam.gserviceaccount.com";
const stores = await serviceAndStores((s) => (svc = s));

async function register(sheetId: string, storeName: string) {
  const user = await createUser({ email: `locale-${storeName}-${randomUUID()}@example.com`, plan: "business" });
  // The person registering edits the sheet in Google and proves it by choosing it in the Picker.
  await svc.admin(`/spreadsheets/${sheetId}/access`, { members: { "owner@example.com": "writer" } }, "PATCH");
  return rowsClient(sheetId, await registeredKey(user, sheetId));
}

describe.each(stores)("on the %s store", (storeName, makeStore) => {
  let api: ReturnType<typeof rowsClient>;
  let sheetId: string;
  const ids = async (query: string) => {
    const res = await api.list("Bestellungen", `select=artikel&${query}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return (res.body.data as { id: string }[]).map((r) => r.id);
  };

  beforeAll(async () => {
    setLimitStore(makeStore());
    // A copy of the seeded de_DE sheet per store: one account per registration.
    sheetId = String((await svc.admin(`/spreadsheets/${GERMAN_SPREADSHEET_ID}/copy`, {})).spreadsheetId);
    api = await register(sheetId, storeName);
  });

  it("returns values as the sheet shows them, and typed in its locale and time zone", async () => {
    const shown = await api.get("Bestellungen", "1");
    expect(shown.body.data).toEqual({
      id: "1",
      artikel: "Schreibtischlampe",
      menge: "2",
      gewicht: "24,5",
      preis: "24,50 €",
      rabatt: "15%",
      bestellt: "15.01.2024",
      geliefert: "17.01.2024 09:45",
      bezahlt: "TRUE",
      summe: "49,00 €",
    });
    const typed = await api.list("Bestellungen", "typed=true&limit=2");
    expect(typed.body.data).toEqual([
      {
        id: 1,
        artikel: "Schreibtischlampe",
        menge: 2,
        gewicht: 24.5,
        preis: 24.5,
        rabatt: 0.15,
        bestellt: "2024-01-15",
        geliefert: "2024-01-17T09:45:00+01:00",
        bezahlt: true,
        summe: 49,
      },
      // Summer time in Europe/Berlin: +02:00.
      {
        id: 2,
        artikel: "Stehpult",
        menge: 10,
        gewicht: 1234.5,
        preis: 1399,
        rabatt: 0,
        bestellt: "2024-06-12",
        geliefert: "2024-06-17T12:00:00+02:00",
        bezahlt: false,
        summe: 13990,
      },
    ]);
  });

  it("infers the schema's types from the de_DE cells", async () => {
    const schema = await callRoute((await import("@/app/api/[sheetId]/schema/route")).GET, {
      method: "GET",
      path: `/api/${sheetId}/schema`,
      params: { sheetId },
      headers: { "X-API-Key": api.key },
    });
    const columns = (schema.body.data as { tabs: { columns: { name: string; type: string }[] }[] }).tabs[0]!.columns;
    expect(Object.fromEntries(columns.map((c) => [c.name, c.type]))).toEqual({
      id: "number",
      artikel: "string",
      menge: "number",
      gewicht: "number",
      preis: "currency",
      rabatt: "percent",
      bestellt: "date",
      geliefert: "datetime",
      bezahlt: "boolean",
      summe: "currency",
    });
  });

  it.each([
    // Numbers written as JSON, or as the sheet shows them.
    ["gewicht>100", ["2", "3"]],
    ["gewicht>=1.234\\,5", ["2"]], // a comma inside a value is escaped
    ["gewicht<24.5", ["4"]],
    ["preis<100", ["1", "3"]],
    ["preis=24.5", ["1"]],
    ["preis=24\\,50 €", ["1"]],
    ["preis!=24.5", ["2", "3", "4"]],
    ["summe>=1000", ["2"]],
    ["rabatt>=10%", ["1", "4"]],
    ["rabatt>0.05", ["1", "4"]],
    // Dates as ISO 8601, or as the sheet shows them; date-times in the sheet's time zone.
    ["bestellt>2024-02-01", ["2", "4"]],
    ["bestellt<01.02.2024", ["1", "3"]],
    ["bestellt=2024-01-15", ["1"]],
    ["geliefert>=2024-06-17T10:00:00Z", ["2", "4"]],
    ["geliefert<2024-01-17T09:45", ["3"]],
  ])("filters by value: %s", async (filter, expected) => {
    expect(await ids(`filter=${encodeURIComponent(filter)}`)).toEqual(expected);
  });

  it.each([
    ["sort=gewicht", ["4", "1", "3", "2"]],
    ["sort=gewicht&order=desc", ["2", "3", "1", "4"]],
    ["sort=preis&order=desc", ["2", "4", "3", "1"]],
    ["sort=bestellt", ["3", "1", "2", "4"]],
    ["sort=geliefert&order=desc", ["4", "2", "1", "3"]],
  ])("sorts by value: %s", async (query, expected) => {
    expect(await ids(query)).toEqual(expected);
  });
});

describe("the same sheet in en_US, de_DE and fr_FR", () => {
  beforeAll(() => setLimitStore(stores[0]![1]()));

  it.each([
    ["en_US", "1,234.5", "$24.50", "1/15/2024"],
    ["de_DE", "1.234,5", "24,50 €", "15.01.2024"],
    ["fr_FR", "1\u202f234,5", "24,50 €", "15/01/2024"],
  ])("%s: %s and %s are typed, filtered and sorted by value", async (locale, weight, price, date) => {
    const sheetId = String(
      (
        await svc.admin("/spreadsheets", {
          title: `Locale ${locale}`,
          locale,
          timeZone: "America/New_York",
          members: { [SA]: "writer" },
          tabs: [
            {
              title: "Items",
              rows: [
                ["id", "weight", "price", "share", "day", "at"],
                [1, 1234.5, 24.5, 0.125, 45306, 45306.5],
                [2, 99.5, 1200, 0.5, 45000, 45450.25],
                [3, 8, 3, 0.05, 45400, 45300],
              ],
              columnFormats: {
                weight: { type: "NUMBER", pattern: "#,##0.0" },
                price: { type: "CURRENCY" },
                share: { type: "PERCENT" },
                day: { type: "DATE" },
                at: { type: "DATE_TIME" },
              },
            },
          ],
        })
      ).spreadsheetId,
    );
    const api = await register(sheetId, locale);
    const first = (await api.get("Items", "1")).body.data as Record<string, string>;
    expect([first.weight, first.price, first.day]).toEqual([weight, price, date]);
    expect((await api.get("Items", "1", "typed=true")).body.data).toEqual({
      id: 1,
      weight: 1234.5,
      price: 24.5,
      share: 0.125,
      day: "2024-01-15",
      at: "2024-01-15T12:00:00-05:00",
    });
    expect(((await api.get("Items", "2", "typed=true")).body.data as { at: string }).at).toBe(
      "2024-06-07T06:00:00-04:00",
    );
    const listed = async (query: string) =>
      ((await api.list("Items", query)).body.data as { id: string }[]).map((r) => r.id);
    expect(await listed("filter=weight>100")).toEqual(["1"]);
    expect(await listed("filter=price>=1000")).toEqual(["2"]);
    expect(await listed("filter=day<2024-01-01")).toEqual(["2"]);
    expect(await listed("sort=weight")).toEqual(["3", "2", "1"]);
    expect(await listed("sort=price&order=desc")).toEqual(["2", "1", "3"]);
    expect(await listed("sort=day")).toEqual(["2", "1", "3"]);
  });
});
