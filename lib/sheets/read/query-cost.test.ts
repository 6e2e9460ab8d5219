import { describe, expect, it } from "vitest";
import { ApiError } from "@/lib/errors";
import { parseTabValues } from "@/lib/sheets/values/rows";
import type { TabModel } from "@/lib/sheets/values/tab-model";
import { applyQuery, conditionsOf, parseListQuery, queryColumns } from "./query";
import { decideAll, MAX_CONDITIONS, queryWork, WORK_BUDGET } from "./query-cost";

const model: TabModel = {
  name: "T",
  gid: 0,
  hasIdColumn: true,
  locale: "en_US",
  timeZone: "Etc/UTC",
  columns: [
    { name: "id", index: 0, type: "number" },
    { name: "t", index: 1, type: "string" },
  ],
};
const tab = (cells: string[]) => parseTabValues("T", [["id", "t"], ...cells.map((c, i) => [String(i + 1), c])], model);
const refusal = (f: () => unknown) => {
  try {
    f();
  } catch (err) {
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).status).toBe(400);
    return (err as ApiError).message;
  }
  throw new Error("not refused");
};
const filter = (text: string) => new URLSearchParams({ filter: text });

describe("query limits, read from the query alone", () => {
  it("refuses a pattern over 1,000 characters, naming the limit", () => {
    expect(refusal(() => parseListQuery(filter(`t~=*${"a".repeat(7_998)}b*`), ["id", "t"]))).toMatch(
      /up to 1,000 characters \(the pattern length limit\); one has 8,001/,
    );
    expect(refusal(() => parseListQuery(filter(`t~${"a".repeat(1_001)}`), ["id", "t"]))).toMatch(
      /pattern length limit/,
    );
    expect(() => parseListQuery(filter(`t~=${"a".repeat(1_000)}`), ["id", "t"])).not.toThrow();
  });

  it("refuses a ~= pattern of over 32 stars, naming the limit; escaped stars are text", () => {
    expect(refusal(() => parseListQuery(filter(`t~=${"*a".repeat(33)}`), ["id", "t"]))).toMatch(
      /up to 32 \* wildcards \(the wildcard limit\); one has 33/,
    );
    expect(() => parseListQuery(filter(`t~=${"*a".repeat(32)}${"\\*".repeat(40)}`), ["id", "t"])).not.toThrow();
  });

  it("refuses over 100 conditions, filter and or together, naming the limit", () => {
    const params = new URLSearchParams({
      filter: Array.from({ length: 60 }, () => "t~a").join(","),
      or: Array.from({ length: 41 }, () => "t=b").join(","),
    });
    expect(refusal(() => parseListQuery(params, ["id", "t"]))).toMatch(
      /up to 100 conditions.*\(the condition limit\); this one has 101/,
    );
    expect(MAX_CONDITIONS).toBe(100);
  });
});

describe("the work budget, read with the tab", () => {
  const cells = Array.from({ length: 5 }, (_, i) => `${"a".repeat(50_000)}${i}`);

  it("refuses patterns that would read the tab's text past the budget, naming it", async () => {
    const data = tab(cells);
    const q = parseListQuery(
      filter(`t~=${Array.from({ length: 250 }, (_, k) => `*a*${k}`).join("|")}`),
      queryColumns(data),
    );
    expect(queryWork(data, conditionsOf(q))).toBeGreaterThan(WORK_BUDGET);
    const message = refusal(() => applyQuery(data, q));
    expect(message).toMatch(/over the work budget of 50,000,000 per request/);
    await expect(decideAll(data, conditionsOf(q))).rejects.toThrow(/work budget/);
  });

  it("answers the costliest accepted hostile pattern against 50,000-character cells at once", async () => {
    // 32 stars, 1,000 characters, every part found until the last: the old walk took seconds here.
    const pattern = `*${"a".repeat(30)}*${Array.from({ length: 29 }, () => "a".repeat(30)).join("*")}*${"a".repeat(60)}b*`;
    const data = tab(cells);
    const q = parseListQuery(filter(`t~=${Array.from({ length: 40 }, () => pattern).join("|")}`), queryColumns(data));
    expect(queryWork(data, conditionsOf(q))).toBeLessThanOrEqual(WORK_BUDGET);
    const started = performance.now();
    expect(applyQuery(data, q, await decideAll(data, conditionsOf(q))).total).toBe(0);
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it("decides a long query in slices, giving the event loop turns meanwhile", async () => {
    const data = tab(Array.from({ length: 100_000 }, (_, i) => `row ${i} of the tab, some text`));
    const q = parseListQuery(filter(Array.from({ length: 8 }, (_, k) => `t~=*${k}*`).join(",")), queryColumns(data));
    let turns = 0;
    let counting = true;
    const tick = () => {
      turns++;
      if (counting) setImmediate(tick);
    };
    setImmediate(tick);
    const decided = await decideAll(data, conditionsOf(q));
    counting = false;
    expect(decided.size).toBe(8);
    // About 45 million units in slices of 2 million: without slices, no turn at all.
    expect(turns).toBeGreaterThanOrEqual(10);
  });
});
