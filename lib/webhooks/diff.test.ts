import { describe, expect, it } from "vitest";
import { afterWrite } from "./changes";
import { diffCopies, type TabCopy } from "./diff";

const withIds = (rows: [number, string, string[]][], columns = ["id", "name", "qty"]): TabCopy => ({
  columns,
  hasIdColumn: true,
  rows,
});
const noIds = (rows: [number, string[]][], columns = ["name", "qty"]): TabCopy => ({
  columns,
  hasIdColumn: false,
  rows: rows.map(([n, cells]) => [n, String(n), cells]),
});

describe("diffCopies on a tab with an id column", () => {
  const before = withIds([
    [2, "1", ["1", "lamp", "3"]],
    [3, "2", ["2", "desk", "1"]],
    [4, "3", ["3", "chair", "5"]],
  ]);

  it("reports an edited cell with its column, before and after", () => {
    const after = withIds([
      [2, "1", ["1", "lamp", "3"]],
      [3, "2", ["2", "desk", "2"]],
      [4, "3", ["3", "chair", "5"]],
    ]);
    expect(diffCopies(before, after)).toEqual([
      {
        type: "row.updated",
        rowId: "2",
        row: { id: "2", name: "desk", qty: "2" },
        previous: { id: "2", name: "desk", qty: "1" },
        changes: { qty: { before: "1", after: "2" } },
      },
    ]);
  });

  it("reports created and deleted rows, and nothing for a moved row", () => {
    const after = withIds([
      [2, "3", ["3", "chair", "5"]],
      [3, "1", ["1", "lamp", "3"]],
      [4, "9", ["9", "tray", "7"]],
    ]);
    expect(diffCopies(before, after)).toEqual([
      { type: "row.deleted", rowId: "2", row: { id: "2", name: "desk", qty: "1" } },
      { type: "row.created", rowId: "9", row: { id: "9", name: "tray", qty: "7" } },
    ]);
  });

  it("reports a header change once and compares rows on the columns both copies have", () => {
    const after = withIds(
      [
        [2, "1", ["1", "lamp", "3"]],
        [3, "2", ["2", "desk", "1"]],
        [4, "3", ["3", "chair", "6"]],
      ],
      ["id", "title", "qty"],
    );
    expect(diffCopies(before, after)).toEqual([
      { type: "schema.changed", rowId: null, columns: ["id", "title", "qty"], previousColumns: ["id", "name", "qty"] },
      expect.objectContaining({ type: "row.updated", rowId: "3", changes: { qty: { before: "5", after: "6" } } }),
    ]);
  });

  it("treats the sheet's formatting of cells just written through the API as no edit", () => {
    const written = afterWrite(before, { updated: { rowNumber: 3, id: "2", cells: ["2", "desk", "10"] } });
    const reread = withIds([
      [2, "1", ["1", "lamp", "3"]],
      [3, "2", ["2", "desk", "10.00"]],
      [4, "3", ["3", "chair", "5"]],
    ]);
    expect(diffCopies(before, written).map((c) => c.type)).toEqual(["row.updated"]);
    expect(diffCopies(written, reread)).toEqual([]);
  });
});

describe("diffCopies on a tab without an id column (rows are row numbers)", () => {
  const before = noIds([
    [2, ["ada", "1"]],
    [3, ["grace", "2"]],
    [4, ["alan", "3"]],
  ]);

  it("a row deleted above others is one delete, not a shift of every row below", () => {
    const after = noIds([
      [2, ["ada", "1"]],
      [3, ["alan", "3"]],
    ]);
    expect(diffCopies(before, after)).toEqual([
      { type: "row.deleted", rowId: "3", row: { id: "3", name: "grace", qty: "2" } },
    ]);
  });

  it("a row inserted above others is one create", () => {
    const after = noIds([
      [2, ["new", "0"]],
      [3, ["ada", "1"]],
      [4, ["grace", "2"]],
      [5, ["alan", "3"]],
    ]);
    expect(diffCopies(before, after)).toEqual([
      { type: "row.created", rowId: "2", row: { id: "2", name: "new", qty: "0" } },
    ]);
  });

  it("an edited row is an update at its row number", () => {
    const after = noIds([
      [2, ["ada", "1"]],
      [3, ["grace", "5"]],
      [4, ["alan", "3"]],
    ]);
    expect(diffCopies(before, after)).toEqual([
      {
        type: "row.updated",
        rowId: "3",
        row: { id: "3", name: "grace", qty: "5" },
        previous: { id: "3", name: "grace", qty: "2" },
        changes: { qty: { before: "2", after: "5" } },
      },
    ]);
  });

  it("an API delete moves the rows below up without events of their own", () => {
    const after = afterWrite(before, { deleted: { rowNumber: 3, id: "3", cells: ["grace", "2"] } });
    expect(after.rows).toEqual([
      [2, "2", ["ada", "1"]],
      [3, "3", ["alan", "3"]],
    ]);
    expect(diffCopies(before, after)).toEqual([
      { type: "row.deleted", rowId: "3", row: { id: "3", name: "grace", qty: "2" } },
    ]);
  });
});

describe("afterWrite", () => {
  it("leaves the copy it starts from as it was, and shares the rows the write did not touch", () => {
    const before = withIds([
      [2, "1", ["1", "lamp", "3"]],
      [3, "2", ["2", "desk", "1"]],
      [4, "3", ["3", "chair", "5"]],
    ]);
    const snapshot = JSON.stringify(before);
    const after = afterWrite(before, {
      updated: { rowNumber: 3, id: "2", cells: ["2", "desk", "9"] },
      deleted: { rowNumber: 2, id: "1", cells: ["1", "lamp", "3"] },
    });
    expect(JSON.stringify(before)).toBe(snapshot);
    expect(after.rows).toEqual([
      [2, "2", ["2", "desk", "9"]],
      [3, "3", ["3", "chair", "5"]],
    ]);
    expect(after.rows[1]![2]).toBe(before.rows[2]![2]);
  });

  it("moves the rows below several deletes up by as many, with their row-number ids", () => {
    const before = noIds([
      [2, ["a", "1"]],
      [3, ["b", "2"]],
      [4, ["c", "3"]],
      [5, ["d", "4"]],
      [6, ["e", "5"]],
    ]);
    const after = afterWrite(before, {
      deleted: [
        { rowNumber: 5, id: "5", cells: ["d", "4"] },
        { rowNumber: 3, id: "3", cells: ["b", "2"] },
      ],
    });
    expect(after.rows).toEqual([
      [2, "2", ["a", "1"]],
      [3, "3", ["c", "3"]],
      [4, "4", ["e", "5"]],
    ]);
  });
});
