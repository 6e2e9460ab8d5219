// The indexed query path against a plain reading of the query rules (DECISIONS 8-10), row by row:
// the same rows, in the same order, with the same total, on random tabs and random queries
// (ranges answered from sort orders, desc ties, empty values, mixed columns, `or` groups).
import { describe, expect, it } from "vitest";
import { comparableTarget, comparableValue, comparesByValue } from "@/lib/sheets/values/cell-values";
import { likePattern } from "@/lib/sheets/values/like";
import { applyQuery, parseListQuery, queryColumns, type Condition, type ListQuery } from "./query";
import { findRow } from "@/lib/sheets/read/tab-index";
import { parseTabValues, rowToJson, type TabData, type TabRow } from "@/lib/sheets/values/rows";
import type { TabModel } from "@/lib/sheets/values/tab-model";

function reference(data: TabData, q: ListQuery): { rows: number[]; total: number } {
  const at = (column: string) => data.columns.findIndex((c) => c.name === column);
  const cell = (row: TabRow, column: string) => (at(column) >= 0 ? row.cells[at(column)]! : row.id);
  const model = (column: string) => data.columns[at(column)] ?? { type: "number" as const };
  const holds = (row: TabRow, c: Condition) => {
    const v = cell(row, c.column);
    const n = comparableValue(v, model(c.column), data.where);
    const t = comparableTarget(c.values[0]!, model(c.column), data.where);
    const diff = n !== undefined && t !== undefined ? n - t : v < c.values[0]! ? -1 : v > c.values[0]! ? 1 : 0;
    const equal = () =>
      c.values.includes(v) ||
      (comparesByValue(model(c.column).type) &&
        n !== undefined &&
        c.values.some((x) => comparableTarget(x, model(c.column), data.where) === n));
    switch (c.op) {
      case "=":
        return equal();
      case "!=":
        return !equal();
      case "~":
        return v.toLowerCase().includes(c.values[0]!.toLowerCase());
      case "~=":
        return c.values.some((x) => likePattern(x).test(v));
      case ">":
        return v !== "" && diff > 0;
      case ">=":
        return v !== "" && diff >= 0;
      case "<":
        return v !== "" && diff < 0;
      case "<=":
        return v !== "" && diff <= 0;
    }
  };
  const keys = q.sort ? [{ column: q.sort, order: q.order }, ...q.thenBy] : [];
  const numeric = (column: string) =>
    data.rows.every(
      (r) => cell(r, column) === "" || comparableValue(cell(r, column), model(column), data.where) !== undefined,
    );
  const positions = data.rows
    .map((_, i) => i)
    .filter(
      (i) =>
        q.filters.every((c) => holds(data.rows[i]!, c)) && q.anyOf.every((g) => g.some((c) => holds(data.rows[i]!, c))),
    );
  const byValue = new Map(keys.map((k) => [k.column, numeric(k.column)]));
  positions.sort((a, b) => {
    for (const k of keys) {
      const x = cell(data.rows[a]!, k.column);
      const y = cell(data.rows[b]!, k.column);
      if (x === "" || y === "") {
        if (x !== y) return x === "" ? 1 : -1;
        continue;
      }
      const diff = byValue.get(k.column)
        ? comparableValue(x, model(k.column), data.where)! - comparableValue(y, model(k.column), data.where)!
        : x < y
          ? -1
          : x > y
            ? 1
            : 0;
      if (diff !== 0) return k.order === "desc" ? -diff : diff;
    }
    return a - b;
  });
  return {
    rows: positions.slice(q.offset, q.offset + q.limit).map((i) => data.rows[i]!.rowNumber),
    total: positions.length,
  };
}

// A seeded generator: the same cases every run.
function random(seed: number) {
  return () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
}

const NUMBERS = ["", "1", "1.0", "01", "-3", "2.5", "10", "9", "1,200.5", "0", "-0"];
const TEXTS = ["", "apple", "Apple", "APPLE pie", "banana", "10", "9", "n/a", "Éclair", "éclair", "kiwi*", "zz"];
const PRICES = ["", "$1.00", "$-2.50", "$1,200.50", "$10.00", "$9.99", "free"];
const model: TabModel = {
  name: "T",
  gid: 0,
  hasIdColumn: false,
  locale: "en_US",
  timeZone: "Etc/UTC",
  columns: [
    { name: "n", index: 0, type: "number" },
    { name: "t", index: 1, type: "string" },
    { name: "p", index: 2, type: "currency" },
    { name: "m", index: 3, type: "string" },
  ],
};

describe("indexed queries read as the rules say, row by row", () => {
  const next = random(17);
  const pick = <T>(xs: T[]) => xs[Math.floor(next() * xs.length)]!;
  const values = [
    ["n", "t", "p", "m"],
    ...Array.from({ length: 300 }, (_, r) =>
      r % 41 === 7 ? [] : [pick(NUMBERS), pick(TEXTS), pick(PRICES), pick([...NUMBERS, ...TEXTS])],
    ),
  ];
  const data = parseTabValues("T", values, model);
  const columns = queryColumns(data);
  const conditions = [
    ...["n", "p", "m", "id"].flatMap((c) =>
      [">", ">=", "<", "<="].flatMap((op) => ["1", "9", "-1", "1200.5", "abc", "10"].map((v) => `${c}${op}${v}`)),
    ),
    ...["t", "m"].flatMap((c) =>
      [">", "<=", ">="].flatMap((op) => ["apple", "N", "9", "banana"].map((v) => `${c}${op}${v}`)),
    ),
    "n=1",
    "n=1|9",
    "n!=",
    "n=",
    "p=1",
    "p=-2.5|10",
    "t=apple|banana",
    "t!=apple",
    "t~APP",
    "t~é",
    "m~1",
    "t~=*e",
    "t~=kiwi\\*",
    "m~=1*|*a",
    "id=5|17",
    "id>250",
  ];
  const sorts = [
    "",
    "sort=n",
    "sort=n&order=desc",
    "sort=t",
    "sort=t&order=desc",
    "sort=p",
    "sort=m&order=desc",
    "sort=id&order=desc",
    "sort=n,t&order=desc,asc",
    "sort=t,p,n&order=asc,desc,desc",
    "sort=m,n",
  ];

  it("on 400 random queries", () => {
    for (let k = 0; k < 400; k++) {
      const filter = Array.from({ length: Math.floor(next() * 3) }, () => pick(conditions));
      const params = new URLSearchParams(pick(sorts));
      if (filter.length) params.set("filter", filter.join(","));
      if (next() < 0.3) params.append("or", [pick(conditions), pick(conditions)].join(","));
      params.set("limit", String(1 + Math.floor(next() * 60)));
      params.set("offset", String(Math.floor(next() * 40)));
      const query = parseListQuery(params, columns);
      const { rows, total } = applyQuery(data, query);
      expect({ query: params.toString(), rows: rows.map((r) => r.rowNumber), total }).toEqual({
        query: params.toString(),
        ...reference(data, query),
      });
    }
  });

  it("a range on the sort column, and a narrow range without sort, visit only their slice", () => {
    for (const q of [
      "filter=n>=1,n<10&sort=n&order=desc&limit=100",
      "filter=n>1,n<=9,p>0&sort=n,t&order=asc,desc&limit=100",
      "filter=id>=100,id<110&limit=100",
      "filter=t>=b,t<n&limit=100",
      "filter=n>10,n<9&sort=n",
    ]) {
      const query = parseListQuery(new URLSearchParams(q), columns);
      const { rows, total } = applyQuery(data, query);
      expect({ q, rows: rows.map((r) => r.rowNumber), total }).toEqual({ q, ...reference(data, query) });
    }
  });
});

describe("rows by id", () => {
  it("finds the first row with an id, on tabs with and without an id column", () => {
    const withIds = parseTabValues("T", [["id", "v"], ["a", "1"], ["b", "2"], ["a", "3"], [], ["c", "4"]]);
    expect(findRow(withIds, "a")?.cells).toEqual(["a", "1"]);
    expect(findRow(withIds, "c")?.rowNumber).toBe(6);
    expect(findRow(withIds, "d")).toBeUndefined();
    const numbered = parseTabValues("T", [["v"], ["x"], [], ["y"]]);
    expect(findRow(numbered, "4")?.cells).toEqual(["y"]);
    expect(findRow(numbered, "3")).toBeUndefined();
  });

  it("keeps a row's number and id in copies made with new cells", () => {
    const data = parseTabValues("T", [
      ["id", "v"],
      ["a", "1"],
    ]);
    const row = findRow(data, "a")!;
    expect({ ...row, cells: ["a", "2"] }).toEqual({ rowNumber: 2, id: "a", cells: ["a", "2"] });
    expect(rowToJson(data, row)).toEqual({ id: "a", v: "1" });
  });
});

describe("filter decisions kept with a copy", () => {
  it("are never shared between a value holding a separator and a list of values", () => {
    const model = {
      name: "T",
      columns: [
        { name: "id", index: 0, type: "number" },
        { name: "status", index: 1, type: "string" },
      ],
      hasIdColumn: true,
    } as unknown as TabModel;
    const data = parseTabValues(
      "T",
      [
        ["id", "status"],
        ["1", "open"],
        ["2", "held"],
        ["3", "closed"],
      ],
      model,
    );
    const ids = (qs: string) =>
      applyQuery(data, parseListQuery(new URLSearchParams(qs), queryColumns(data))).rows.map((r) => r.id);
    expect(ids("filter=status%3Dopen%01held")).toEqual([]);
    expect(ids("filter=status%3Dopen%7Cheld")).toEqual(["1", "2"]);
    expect(ids("filter=status%3Dopen%00held")).toEqual([]);
    expect(ids("filter=status%3Dopen%7Cheld&sort=status")).toEqual(["2", "1"]);
  });
});
