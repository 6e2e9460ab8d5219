// A submission's fields as one row of the key's tab: field names are the tab's column names as
// its header spells them; the form's own fields (`_gotcha`, `_redirect`, any name starting with
// `_`) are never written; a field the key does not accept is dropped or refused, as the key says.
import { ApiError } from "@/lib/errors";
import type { FormScope } from "@/lib/keys/key-record";
import type { ColumnModel } from "@/lib/sheets/values/tab-model";
import type { CellInput, RowInput } from "@/lib/sheets/write/row-input";
import type { FormFields } from "./form-body";

/** The honeypot: a field people never see, that bots fill. */
export const HONEYPOT_FIELD = "_gotcha";
export const REDIRECT_FIELD = "_redirect";

export interface Reserved {
  /** The honeypot was filled: answer as if accepted, write nothing. */
  spam: boolean;
  /** The `_redirect` field, as sent. */
  redirect: string | undefined;
}

/** The form's own fields, read before anything else (spam costs nothing further). */
export function reservedFields(fields: FormFields): Reserved {
  let spam = false;
  let redirect: string | undefined;
  for (const [name, value] of fields) {
    if (name === HONEYPOT_FIELD) spam ||= value !== null && String(value).trim() !== "";
    else if (name === REDIRECT_FIELD && value !== null) redirect = String(value);
  }
  return { spam, redirect };
}

const TRUE = new Set(["on", "true", "yes", "1"]);
const FALSE = new Set(["off", "false", "no", "0"]);

/** A form sends text: a number or boolean column gets a number or boolean when the text is one. */
function typed(value: CellInput, type: ColumnModel["type"] | undefined): CellInput {
  if (typeof value !== "string") return value;
  const text = value.trim();
  if ((type === "number" || type === "currency" || type === "percent") && /^-?\d+(\.\d+)?$/.test(text))
    return Number(text);
  if (type === "boolean" && TRUE.has(text.toLowerCase())) return true;
  if (type === "boolean" && FALSE.has(text.toLowerCase())) return false;
  return value;
}

/** The row to append; a refused or empty submission throws (400). */
export function submissionRow(fields: FormFields, scope: FormScope, columns: readonly ColumnModel[]): RowInput {
  const byName = new Map(columns.filter((c) => c.name !== "id").map((c) => [c.name, c]));
  const accepted = scope.fields ? new Set(scope.fields.filter((f) => byName.has(f))) : new Set(byName.keys());
  const values = new Map<string, CellInput>();
  const refused: string[] = [];
  for (const [name, value] of fields) {
    if (name.startsWith("_")) continue;
    else if (!accepted.has(name)) refused.push(name);
    // A repeated name (checkboxes of one group) is one cell: its values joined.
    else
      values.set(
        name,
        values.has(name) ? `${String(values.get(name))}, ${String(value)}` : typed(value, byName.get(name)?.type),
      );
  }
  if (refused.length && scope.unknownFields === "refuse") {
    throw new ApiError(
      "validation_error",
      `This form does not accept the field${refused.length > 1 ? "s" : ""} ${refused.map((n) => JSON.stringify(n)).join(", ")}. It accepts: ${[...accepted].join(", ") || "none"}.`,
    );
  }
  if (!values.size)
    throw new ApiError("validation_error", "The form sent none of the fields this form accepts: nothing to write.");
  return Object.fromEntries(values);
}
