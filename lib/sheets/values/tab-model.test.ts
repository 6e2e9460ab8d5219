import { describe, expect, it } from "vitest";
import { buildTabModel, columnNames, columnType, type SampleCell } from "./tab-model";

const text = (s: string): SampleCell => ({ formattedValue: s, effectiveValue: { stringValue: s } });
const num = (n: number, type?: string): SampleCell => ({
  formattedValue: String(n),
  effectiveValue: { numberValue: n },
  effectiveFormat: type ? { numberFormat: { type } } : undefined,
});
const bool = (b: boolean): SampleCell => ({ formattedValue: b ? "TRUE" : "FALSE", effectiveValue: { boolValue: b } });

describe("columnNames", () => {
  it("skips blank headers and suffixes repeated ones", () => {
    expect(columnNames(["id", "email", "", "email", "  ", "email", "name "])).toEqual([
      { name: "id", index: 0 },
      { name: "email", index: 1 },
      { name: "email_2", index: 3 },
      { name: "email_3", index: 5 },
      { name: "name", index: 6 },
    ]);
  });

  it("never gives two columns one name, even when a header already looks suffixed", () => {
    expect(columnNames(["a", "a_2", "a"]).map((c) => c.name)).toEqual(["a", "a_2", "a_3"]);
  });

  it("never takes a later header's own name for a suffix: a real email_2 column keeps it", () => {
    expect(columnNames(["id", "email", "", "email", "Name", "name", "email_2"]).map((c) => c.name)).toEqual([
      "id",
      "email",
      "email_3",
      "Name",
      "name",
      "email_2",
    ]);
    expect(columnNames(["a", "a", "a_2", "a_2"]).map((c) => c.name)).toEqual(["a", "a_3", "a_2", "a_2_2"]);
  });
});

describe("columnType", () => {
  it.each([
    [[num(1), num(2.5), undefined], "number"],
    [[num(45292, "DATE")], "date"],
    [[num(45292.5, "DATE_TIME")], "datetime"],
    [[num(45292, "DATE"), num(45292.5, "DATE_TIME")], "datetime"],
    [[num(9.99, "CURRENCY")], "currency"],
    [[num(0.1, "PERCENT")], "percent"],
    [[num(9.99, "CURRENCY"), num(3)], "number"],
    [[bool(true), bool(false)], "boolean"],
    [[text("a"), num(1)], "string"],
    [[text("")], "string"],
    [[], "string"],
  ] as [SampleCell[], string][])("%#: %j is %s", (cells, type) => {
    expect(columnType(cells)).toBe(type);
  });
});

describe("buildTabModel", () => {
  it("reads names from the header and types from the rows below, and notices an id column", () => {
    const model = buildTabModel("Tab", [
      [text("id"), text(""), text("price"), text("price")],
      [num(1), text("x"), num(5, "CURRENCY"), bool(true)],
    ]);
    expect(model).toEqual({
      name: "Tab",
      gid: 0,
      hasIdColumn: true,
      columns: [
        { name: "id", index: 0, type: "number" },
        { name: "price", index: 2, type: "currency" },
        { name: "price_2", index: 3, type: "boolean" },
      ],
    });
  });
});

describe("buildTabModel in the sheet's locale", () => {
  it("keeps the sheet's locale and time zone and the pattern most date cells show in", () => {
    const date = (n: number, pattern: string): SampleCell => ({
      formattedValue: String(n),
      effectiveValue: { numberValue: n },
      effectiveFormat: { numberFormat: { type: "DATE", pattern } },
    });
    const model = buildTabModel(
      "T",
      [
        [text("day"), text("n")],
        [date(45292, "dd.MM.yyyy"), num(1)],
        [date(45293, "dd.MM.yyyy"), num(2)],
        [date(45294, "yyyy-mm-dd"), num(3)],
      ],
      0,
      { locale: "de_DE", timeZone: "Europe/Berlin" },
    );
    expect(model).toMatchObject({ locale: "de_DE", timeZone: "Europe/Berlin" });
    expect(model.columns).toEqual([
      { name: "day", index: 0, type: "date", pattern: "dd.MM.yyyy" },
      { name: "n", index: 1, type: "number" },
    ]);
  });
});
