// The ready HTML form for a form key, made from its tab's columns: a label and an input of the
// column's type for each field, the honeypot hidden from people (bots fill it), no script.
import type { ColumnModel } from "@/lib/sheets/values/tab-model";
import { HONEYPOT_FIELD } from "./form-row";

const attr = (text: string) =>
  text.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
const text = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/** The input for a column: an email or URL name gets its own type, as browsers check it. */
function input(column: Pick<ColumnModel, "name" | "type">, id: string): string {
  const name = attr(column.name);
  const lower = column.name.toLowerCase();
  if (column.type === "boolean") return `<input type="checkbox" id="${id}" name="${name}" value="true">`;
  const type =
    column.type === "number" || column.type === "currency" || column.type === "percent"
      ? 'number" step="any'
      : column.type === "date"
        ? "date"
        : column.type === "datetime"
          ? "datetime-local"
          : /e-?mail/.test(lower)
            ? "email"
            : /(^|_)(url|website)$/.test(lower)
              ? "url"
              : /(^|_)(phone|tel)$/.test(lower)
                ? "tel"
                : /message|comment|note|description/.test(lower)
                  ? "textarea"
                  : "text";
  if (type === "textarea") return `<textarea id="${id}" name="${name}"></textarea>`;
  return `<input type="${type}" id="${id}" name="${name}">`;
}

export function formSnippet({
  action,
  columns,
  fields,
}: {
  action: string;
  columns: readonly Pick<ColumnModel, "name" | "type">[];
  fields: readonly string[] | null;
}): string {
  const chosen = columns.filter((c) => c.name !== "id" && (!fields || fields.includes(c.name)));
  const lines = chosen.map((c, i) => `  <label for="f${i}">${text(c.name)}</label>\n  ${input(c, `f${i}`)}`);
  return [
    `<form action="${attr(action)}" method="post">`,
    ...lines,
    `  <!-- Leave this hidden: people never fill it, bots do, and their posts are not saved. -->`,
    `  <input type="text" name="${HONEYPOT_FIELD}" tabindex="-1" autocomplete="off" style="position:absolute;left:-5000px" aria-hidden="true">`,
    `  <button type="submit">Send</button>`,
    `</form>`,
  ].join("\n");
}
