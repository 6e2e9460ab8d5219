// What a cell holds and what a formula computes: the shapes the grid (model.ts), formatting
// (cells.ts) and formulas (formulas.ts) share, here so that none of them imports another for them.

export type Scalar = string | number | boolean;

export interface NumberFormat {
  type: "NUMBER" | "CURRENCY" | "PERCENT" | "SCIENTIFIC" | "DATE" | "TIME" | "DATE_TIME" | "TEXT";
  pattern?: string;
}

/** One stored cell: what was entered (a formula keeps its text) and its own format, if any. */
export interface Cell {
  value: Scalar;
  formula?: boolean;
  format?: NumberFormat;
}

export interface FormulaError {
  error: "#DIV/0!" | "#VALUE!" | "#REF!" | "#NAME?" | "#NUM!" | "#N/A" | "#ERROR!";
  /** ErrorValue.type in the API. */
  type: "DIVIDE_BY_ZERO" | "VALUE" | "REF" | "NAME" | "NUM" | "N_A" | "ERROR";
  message: string;
}

/** A computed value; null is an empty cell. */
export type Computed = Scalar | FormulaError | null;

export const isError = (v: unknown): v is FormulaError => typeof v === "object" && v !== null && "error" in v;

/** A value written with valueInputOption=RAW: stored exactly as sent, never parsed (USER_ENTERED: user-entered.ts). */
export function rawCell(v: Scalar): Cell {
  return { value: v };
}
