import { describe, expect, it } from "vitest";
import { sheetIdIn } from "./sheet-url";

const ID = "1AcmeStoreDemoSpreadsheet0000000000000000001";

describe("sheetIdIn", () => {
  it("finds the id in an address, a bare id, or nothing", () => {
    expect(sheetIdIn(`https://docs.google.com/spreadsheets/d/${ID}/edit#gid=0`)).toBe(ID);
    expect(sheetIdIn(` ${ID} `)).toBe(ID);
    expect(sheetIdIn("https://example.com/spreadsheets/d/x")).toBeUndefined();
    expect(sheetIdIn("")).toBeUndefined();
  });
});
