// A date cell's serial number is paired with its display only when both name the same date.
import { describe, expect, it } from "vitest";
import { withSerials } from "./date-values";
import { scopedData } from "@/lib/sheets/read/read-scope";
import { parseTabValues } from "@/lib/sheets/values/rows";
import type { TabModel } from "@/lib/sheets/values/tab-model";

const model: TabModel = {
  name: "T",
  gid: 0,
  hasIdColumn: true,
  locale: "en_US",
  timeZone: "Etc/UTC",
  columns: [
    { name: "id", index: 0, type: "number" },
    { name: "day", index: 1, type: "date", pattern: "mmm d" },
  ],
};
const JAN_15_2024 = 45306;

describe("withSerials", () => {
  it("keeps a serial that matches the display on every field it shows", () => {
    const data = withSerials(
      parseTabValues(
        "T",
        [
          ["id", "day"],
          ["1", "Jan 15"],
          ["2", ""],
        ],
        model,
      ),
      { columns: [{ name: "day", index: 1, values: [JAN_15_2024, 45000] }] },
    );
    expect(data.dated).toBe(true);
    expect(data.rows.map((r) => r.serials?.[1])).toEqual([JAN_15_2024, undefined]);
  });

  it("drops a serial read after an edit the display copy does not have, and a column that moved", () => {
    const edited = withSerials(
      parseTabValues(
        "T",
        [
          ["id", "day"],
          ["1", "Jan 16"],
        ],
        model,
      ),
      { columns: [{ name: "day", index: 1, values: [JAN_15_2024] }] },
    );
    expect(edited.rows[0]!.serials).toBeUndefined();
    const moved = withSerials(
      parseTabValues(
        "T",
        [
          ["day", "id"],
          ["Jan 15", "1"],
        ],
        model,
      ),
      { columns: [{ name: "day", index: 1, values: [JAN_15_2024] }] },
    );
    expect(moved.rows[0]!.serials).toBeUndefined();
  });

  it("takes the century of a two-digit year from the serial, and still drops a serial of another year", () => {
    const short: TabModel = {
      ...model,
      columns: [
        { name: "id", index: 0, type: "number" },
        { name: "day", index: 1, type: "date", pattern: "M/d/yy" },
      ],
    };
    const serial = (y: number, m: number, d: number) => (Date.UTC(y, m - 1, d) - Date.UTC(1899, 11, 30)) / 86_400_000;
    const data = withSerials(
      parseTabValues(
        "T",
        [
          ["id", "day"],
          ["1", "1/1/35"],
          ["2", "6/30/25"],
          ["3", "6/30/25"],
        ],
        short,
      ),
      {
        columns: [{ name: "day", index: 1, values: [serial(2035, 1, 1), serial(1925, 6, 30), serial(1926, 6, 30)] }],
      },
    );
    expect(data.rows.map((r) => r.serials?.[1])).toEqual([serial(2035, 1, 1), serial(1925, 6, 30), undefined]);
  });

  it("keeps each serial beside its cell in a browser key's view of fewer columns", () => {
    const wide: TabModel = {
      ...model,
      columns: [
        { name: "id", index: 0, type: "number" },
        { name: "note", index: 1, type: "string" },
        { name: "day", index: 2, type: "date", pattern: "mmm d" },
      ],
    };
    const data = withSerials(
      parseTabValues(
        "T",
        [
          ["id", "note", "day"],
          ["1", "x", "Jan 15"],
        ],
        wide,
      ),
      { columns: [{ name: "day", index: 2, values: [JAN_15_2024] }] },
    );
    const view = scopedData(data, { columns: ["day"] });
    expect(view.columns.map((c) => c.name)).toEqual(["id", "day"]);
    expect(view.rows[0]!.serials).toEqual([undefined, JAN_15_2024]);
  });
});
