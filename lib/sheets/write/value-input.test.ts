// Which strings USER_ENTERED writes paste: none that a paste may split into other cells or rows.
import { describe, expect, it } from "vitest";
import { asEntered } from "./value-input";
import { looksLikeFormula } from "./formula-guard";

const update = (text: string) => ({
  updateCells: {
    start: { sheetId: 0, rowIndex: 1, columnIndex: 0 },
    rows: [{ values: [{ userEnteredValue: { stringValue: text } }] }],
    fields: "userEnteredValue",
  },
});
const pastes = (text: string) =>
  asEntered({ userEnteredWrites: true }, [update(text)]).filter((r) => r.pasteData).length;

describe("asEntered", () => {
  it("pastes a plain string, and none holding a tab or any line break: CR, LF, VT, FF, NEL, U+2028, U+2029", () => {
    expect(pastes("42")).toBe(1);
    for (const text of ["a\tb", "a\rb", "a\nb", "a\vb", "a\fb", "a\u0085b", "a\u2028b", "a\u2029b"])
      expect(pastes(text), JSON.stringify(text)).toBe(0);
  });
});

describe("looksLikeFormula", () => {
  it("takes =, and + or - before a letter, ( or =, for a formula; numbers, dates and dashed notes are not", () => {
    for (const text of ["=1+1", "  =A1", "+A1", "-SUM(A1:A2)", "+(1)", "-=1"])
      expect(looksLikeFormula(text), text).toBe(true);
    for (const text of ["-5", "+1.5", "- a note", "2024-01-15", "'=A1", "a=b", "@mention", ""])
      expect(looksLikeFormula(text), text).toBe(false);
  });
});
