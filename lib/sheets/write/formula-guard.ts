// A key set to refuse formulas ("formulas: refuse") has a USER_ENTERED write holding one refused
// whole, before anything is written: "=IMPORTXML(...)" from a Write key would be a live formula.
// What counts as a formula, and what stays writable: README.md ("Refusing formulas").
import type { KeyRecord } from "@/lib/keys/key-record";
import { ApiError, quoted } from "@/lib/errors";
import type { SheetRecord } from "@/lib/sheets/sheet-record";

const FORMULA = /^\s*=|^[+-][\p{L}(=]/u;

/** True when USER_ENTERED writes may enter the text as a formula. */
export const looksLikeFormula = (text: string): boolean => FORMULA.test(text);

/**
 * Throws validation_error naming the first such field (and its row in an array body) when the key
 * refuses formulas and the sheet's writes are USER_ENTERED; RAW writes store every string as text.
 */
export function refuseFormulas(
  key: Pick<KeyRecord, "refusesFormulas">,
  sheet: Partial<Pick<SheetRecord, "userEnteredWrites">>,
  body: unknown,
): void {
  if (!key.refusesFormulas || !sheet.userEnteredWrites) return;
  const rows = Array.isArray(body) ? body : [body];
  rows.forEach((row, i) => {
    if (!row || typeof row !== "object" || Array.isArray(row)) return; // the write's own checks answer it
    for (const [field, value] of Object.entries(row)) {
      if (typeof value !== "string" || !looksLikeFormula(value)) continue;
      const where = Array.isArray(body) ? ` of row ${i + 1} of the body` : "";
      throw new ApiError(
        "validation_error",
        `Field ${quoted(field)}${where} would be entered as a formula (this sheet's writes are USER_ENTERED, and the value starts with ${quoted(value.trim().slice(0, 2))}), and this API key refuses formulas. Nothing was written. To write it as text, start it with an apostrophe ('), which Google Sheets does not store.`,
        { field, ...(Array.isArray(body) ? { row: i + 1 } : {}) },
      );
    }
  });
}
