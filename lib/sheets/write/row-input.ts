// Validation of row bodies (DECISIONS 4-6), all of it before anything is written: values are
// strings, numbers, booleans or null; keys are columns of the tab; a row is never empty.
import { ApiError, quoted } from "@/lib/errors";
import type { TabData } from "@/lib/sheets/values/rows";
import type { TabModel } from "@/lib/sheets/values/tab-model";

export type CellInput = string | number | boolean | null;
export type RowInput = Record<string, CellInput>;

export const MAX_ROWS_PER_CREATE = 1000;
/** A Google Sheets cell holds at most this many characters; Google refuses the whole write past it. */
export const MAX_CELL_CHARACTERS = 50_000;
const bad = (message: string) => new ApiError("validation_error", message);

/**
 * Text Sheets may not store as sent: a NUL, or half of a UTF-16 surrogate pair (JSON's `"\ud800"`
 * escape allows one). What Google does with either is not documented, so it is refused here
 * rather than written and read back different.
 */
function unstorable(text: string): string | undefined {
  if (text.includes("\u0000")) return "a NUL character (\\u0000)";
  if (!text.isWellFormed()) return "a lone UTF-16 surrogate (half of a pair, e.g. \\ud800)";
  return undefined;
}

function where(index: number | undefined): string {
  return index === undefined ? "The body" : `Row ${index + 1} of the body`;
}

/** Shape checks that need no sheet: an object of scalar values, not empty. */
export function checkRowShape(value: unknown, index?: number): RowInput {
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw bad(`${where(index)} must be a JSON object of column names to values.`);
  }
  const entries = Object.entries(value);
  if (!entries.length) throw bad(`${where(index)} is an empty object: name at least one column.`);
  for (const [field, v] of entries) {
    const ok =
      v === null || typeof v === "string" || typeof v === "boolean" || (typeof v === "number" && Number.isFinite(v));
    if (!ok)
      throw bad(
        `Field ${quoted(field)} ${index === undefined ? "" : `of row ${index + 1} `}must be a string, number, boolean or null.`,
      );
    if (typeof v === "string" && v.length > MAX_CELL_CHARACTERS) {
      throw bad(
        `Field ${quoted(field)} ${index === undefined ? "" : `of row ${index + 1} `}is ${v.length.toLocaleString("en-US")} characters long: a Google Sheets cell holds at most ${MAX_CELL_CHARACTERS.toLocaleString("en-US")}. Nothing was written.`,
      );
    }
    const flaw = typeof v === "string" ? unstorable(v) : undefined;
    if (flaw)
      throw bad(
        `Field ${quoted(field)} ${index === undefined ? "" : `of row ${index + 1} `}holds ${flaw}, which a Google Sheets cell may not store as sent. Nothing was written.`,
      );
  }
  // Column names come from users: without a prototype, `name in row` and `row[name]` see only
  // the body's own fields, never `constructor` or `toString` inherited from Object.prototype.
  return Object.assign(Object.create(null) as RowInput, value);
}

export function rowsOfCreateBody(body: unknown): RowInput[] {
  const rows = Array.isArray(body) ? body : [body];
  if (Array.isArray(body) && body.length === 0) throw bad("The body is an empty array: send at least one row.");
  if (rows.length > MAX_ROWS_PER_CREATE)
    throw bad(`At most ${MAX_ROWS_PER_CREATE} rows can be created in one request; got ${rows.length}.`);
  return rows.map((r, i) => checkRowShape(r, Array.isArray(body) ? i : undefined));
}

/** Checks every field names a column of the live tab. */
export function checkColumns(rows: RowInput[], data: TabData, { update }: { update: boolean }): void {
  const names = data.columns.map((c) => c.name);
  rows.forEach((row, i) => {
    for (const field of Object.keys(row)) {
      if (field === "id" && update) throw bad("id cannot be changed: it identifies the row.");
      if (field === "id" && !data.hasIdColumn) {
        throw bad(
          `The tab "${data.tab}" has no id column: its rows are identified by row number, which the sheet assigns.`,
        );
      }
      if (!names.includes(field)) {
        throw bad(
          `${rows.length > 1 ? `Row ${i + 1}: ` : ""}${quoted(field)} is not a column of "${data.tab}". Columns: ${names.join(", ")}.`,
        );
      }
    }
  });
}

/**
 * `readFailure` again, unless a field names no column of the tab's schema as last read: then 400.
 * When the tab cannot be read before a write, a typo in a field would otherwise answer 503 with
 * "send it again as it is", and every retry would meet the same 400 once Google answers. A
 * column added in the sheet since the schema was read is not known here: the message says so.
 */
export function unknownColumnsOr(readFailure: unknown, rows: RowInput[], model: TabModel): never {
  const names = model.columns.map((c) => c.name);
  rows.forEach((row, i) => {
    const field = Object.keys(row).find((f) => f !== "id" && !names.includes(f));
    if (field !== undefined) {
      throw bad(
        `${rows.length > 1 ? `Row ${i + 1}: ` : ""}${quoted(field)} is not a column of "${model.name}" as its schema was last read (the tab could not be read again just now). Columns: ${names.join(", ")}. If the column was just added in the sheet, refresh the schema and send the request again. Nothing was written.`,
      );
    }
  });
  throw readFailure;
}

/** What the sheet will display for a value written RAW. */
export function displayed(value: CellInput): string {
  if (value === null) return "";
  if (typeof value === "boolean") return value ? "TRUE" : "FALSE";
  return String(value);
}

/** The value sent to Google: RAW keeps strings as text (no formulas), null clears the cell. */
export function cellValue(value: CellInput): string | number | boolean {
  return value === null ? "" : value;
}
