import { describe, expect, it } from "vitest";
import { ApiError } from "@/lib/errors";
import { applyQuery, parseListQuery, queryColumns } from "./query";
import { parseTabValues, rowToJson } from "@/lib/sheets/values/rows";

const data = parseTabValues("People", [
  ["name", "city", "age", "score", "note"],
  ["Ada", "London", "36", "$1,200.50", "likes, commas"],
  ["Bob", "Paris", "", "$90.00", "a|b"],
  ["Cy", "london", "7", "", "back\\slash"],
  [],
  ["Dee", "Rome", "36", "$-5.00", ""],
  ["Eve", "Paris", "n/a", "$1,200.50", "x"],
]);

const names = (q: string) => {
  const query = parseListQuery(new URLSearchParams(q), queryColumns(data));
  return applyQuery(data, query).rows.map((r) => r.cells[0]);
};

const rejects = (q: string, message: RegExp) => {
  let err: unknown;
  try {
    parseListQuery(new URLSearchParams(q), queryColumns(data));
  } catch (e) {
    err = e;
  }
  expect(err).toBeInstanceOf(ApiError);
  expect((err as ApiError).code).toBe("validation_error");
  expect((err as ApiError).message).toMatch(message);
};

describe("rows of a tab without an id column", () => {
  it("skips blank rows and uses sheet row numbers as ids", () => {
    expect(data.rows.map((r) => r.id)).toEqual(["2", "3", "4", "6", "7"]);
    expect(rowToJson(data, data.rows[1]!)).toEqual({
      id: "3",
      name: "Bob",
      city: "Paris",
      age: "",
      score: "$90.00",
      note: "a|b",
    });
  });

  it("returns typed values by column type", () => {
    const typed = parseTabValues(
      "T",
      [
        ["n", "c", "p", "b", "s"],
        ["1,234", "$-5.50", "15%", "TRUE", ""],
      ],
      {
        name: "T",
        gid: 0,
        hasIdColumn: false,
        columns: [
          { name: "n", index: 0, type: "number" },
          { name: "c", index: 1, type: "currency" },
          { name: "p", index: 2, type: "percent" },
          { name: "b", index: 3, type: "boolean" },
          { name: "s", index: 4, type: "string" },
        ],
      },
    );
    expect(rowToJson(typed, typed.rows[0]!, { typed: true })).toEqual({
      id: 2,
      n: 1234,
      c: -5.5,
      p: 0.15,
      b: true,
      s: null,
    });
  });
});

describe("filters", () => {
  it.each([
    ["filter=city=Paris", ["Bob", "Eve"]],
    ["filter=city=paris", []],
    ["filter=city=Paris|Rome", ["Bob", "Dee", "Eve"]],
    ["filter=city!=Paris", ["Ada", "Cy", "Dee"]],
    ["filter=city~LON", ["Ada", "Cy"]],
    ["filter=age>10", ["Ada", "Dee", "Eve"]],
    ["filter=age>=36", ["Ada", "Dee", "Eve"]],
    ["filter=age<10", ["Cy"]],
    ["filter=age<=7", ["Cy"]],
    ["filter=score>100", ["Ada", "Eve"]],
    ["filter=score<0", ["Dee"]],
    ["filter=age=36,city=Rome", ["Dee"]],
    ["filter=age=", ["Bob"]],
    ["filter=note=likes\\, commas", ["Ada"]],
    ["filter=note=a\\|b", ["Bob"]],
    ["filter=note=back\\\\slash", ["Cy"]],
    ["filter=note~\\,", ["Ada"]],
    ["filter=id=3|6", ["Bob", "Dee"]],
  ])("%s", (q, expected) => {
    expect(names(q)).toEqual(expected);
  });
});

describe("sort and page", () => {
  it("sorts numerically a column of numbers, empty values last both ways, stably", () => {
    expect(names("sort=score")).toEqual(["Dee", "Bob", "Ada", "Eve", "Cy"]);
    expect(names("sort=score&order=desc")).toEqual(["Ada", "Eve", "Bob", "Dee", "Cy"]);
  });

  it("without sort, order=desc reverses the sheet's order: last rows first, filtered and paged the same", () => {
    const inSheetOrder = names("");
    expect(names("order=desc")).toEqual([...inSheetOrder].reverse());
    expect(names("order=desc&limit=2")).toEqual([...inSheetOrder].reverse().slice(0, 2));
    expect(names("order=desc&limit=2&offset=1")).toEqual([...inSheetOrder].reverse().slice(1, 3));
    expect(names("order=desc&filter=id!=3")).toEqual(names("filter=id!=3").reverse());
    expect(names("order=desc&filter=id>=3")).toEqual(names("filter=id>=3").reverse());
  });

  it("sorts a mixed column by text", () => {
    // "n/a" is not a number, so age sorts as text: "36" < "7" < "n/a".
    expect(names("sort=age")).toEqual(["Ada", "Dee", "Cy", "Eve", "Bob"]);
  });

  it("pages after filtering and counts the matches", () => {
    const query = parseListQuery(
      new URLSearchParams("filter=city!=Rome&sort=name&order=desc&limit=2&offset=1"),
      queryColumns(data),
    );
    const { rows, total } = applyQuery(data, query);
    expect(total).toBe(4);
    expect(rows.map((r) => r.cells[0])).toEqual(["Cy", "Bob"]);
  });

  it("selects columns, always with the id", () => {
    const query = parseListQuery(new URLSearchParams("select=city"), queryColumns(data));
    expect(rowToJson(data, data.rows[0]!, query)).toEqual({ id: "2", city: "London" });
  });
});

describe("bad queries answer 400 with a message", () => {
  it.each([
    ["limit=0", /limit must be an integer from 1 to 1000/],
    ["limit=1001", /limit must be an integer from 1 to 1000/],
    ["limit=ten", /limit must be an integer/],
    ["limit=-1", /limit must be an integer/],
    ["offset=-1", /offset must be a whole number, 0 or more/],
    ["offset=1.5", /offset must be a whole number, 0 or more/],
    ["order=up", /order must be asc or desc/],
    ["sort=height", /Unknown sort column "height"/],
    ["filter=height=3", /Unknown filter column "height"/],
    ["filter=city", /Cannot read the filter condition "city"/],
    ["filter==x", /Cannot read the filter condition/],
    ["filter=city=a,", /empty condition/],
    ["filter=city=a\\", /lone/],
    ["select=city,height", /Unknown select column "height"/],
    ["typed=yes", /typed must be true or false/],
    ["filters=city=Paris", /Unknown query parameter "filters"/],
  ])("%s", (q, message) => rejects(q, message));
});
