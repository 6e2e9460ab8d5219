// The query and header parameters: shared ones in components.parameters, and those that carry
// each tab's own example (written into its operations).
import { MAX_GROUPS } from "@/lib/sheets/read/aggregate";
import { MAX_CSV_ROWS, MAX_LIMIT } from "@/lib/sheets/read/query";

export const LIST_PARAMETERS = [
  "limit",
  "offset",
  "sort",
  "order",
  "filter",
  "or",
  "select",
  "typed",
  "formulas",
  "fresh",
];

// Parameters that carry each tab's own example (tabPaths): written into its operations, not shared.
export const TAB_PARAMETERS = {
  column: {
    name: "column",
    in: "query",
    required: true,
    schema: { type: "string" },
    description: "The column whose distinct values to list.",
  },
  filter_required: {
    name: "filter",
    in: "query",
    required: true,
    schema: { type: "string" },
    description:
      "Conditions joined by `,` that choose the rows to delete, in the list's `filter` syntax. Marked required because a DELETE on the tab never means every row: the route answers 400 without a filter (it also serves a request that gives only `or`). The example matches the row the create example makes.",
  },
  patch_filter: {
    name: "filter",
    in: "query",
    schema: { type: "string" },
    description:
      "With an object body (required then; `or` too): conditions joined by `,` that choose the rows to change, in the list's `filter` syntax. Not with an array body, which finds each row by `?key=` (400). The example matches the row the create example makes.",
  },
};

export const QUERY_PARAMETERS = {
  csv_limit: {
    name: "limit",
    in: "query",
    schema: { type: "integer", minimum: 1, maximum: MAX_CSV_ROWS, default: MAX_CSV_ROWS },
    description: "Rows to return (default: all matching, up to the maximum).",
  },
  upsert: {
    name: "upsert",
    in: "query",
    schema: { type: "string" },
    description:
      "A key column: rows whose key matches a row of the tab update it (named cells only), the others are created. Every row must carry the key; `id` works on tabs with an id column.",
  },
  write_limit: {
    name: "limit",
    in: "query",
    schema: { type: "integer", minimum: 1, maximum: 1000, default: 1 },
    description: "The most rows this request may change; more matches answer 409 and change nothing.",
  },
  dry_run: {
    name: "dry_run",
    in: "query",
    schema: { type: "boolean", default: false },
    description: "`true`: answer what would match (ids, ETags), write nothing.",
  },
  key: {
    name: "key",
    in: "query",
    schema: { type: "string", default: "id" },
    description:
      "Array bodies: the column that finds each row (its value as the sheet shows it, or by value in number and date columns; ids exactly).",
  },
  "If-Match-Rows": {
    name: "If-Match",
    in: "header",
    schema: { type: "string" },
    description:
      "ETags of the rows as you read them (comma-separated, e.g. a dry run's `etags`): 412 and nothing changed when any row the request changes is not among them.",
  },
  group_by: {
    name: "group_by",
    in: "query",
    schema: { type: "string" },
    description: "Columns to group by, comma-separated; none: one group of all matching rows.",
  },
  aggregate: {
    name: "aggregate",
    in: "query",
    schema: { type: "string", default: "count" },
    description:
      "`count` (always given) and `sum:column`, `avg:column`, `min:column`, `max:column` over number, currency or percent columns, comma-separated.",
  },
  group_limit: {
    name: "limit",
    in: "query",
    schema: { type: "integer", minimum: 1, maximum: MAX_GROUPS, default: 1000 },
    description: "Groups (or values) to return.",
  },
  fresh: {
    name: "fresh",
    in: "query",
    schema: { type: "boolean", default: false },
    description:
      "`true` reads the sheet from Google now instead of the cached copy, as `Cache-Control: no-cache` does (for tools that cannot set headers). Parameters starting with `_` (cache-busters such as `_=1700000000000`) are ignored.",
  },
  limit: {
    name: "limit",
    in: "query",
    schema: { type: "integer", minimum: 1, maximum: MAX_LIMIT, default: 100 },
    description: "Rows to return.",
  },
  offset: {
    name: "offset",
    in: "query",
    schema: { type: "integer", minimum: 0, default: 0 },
    description: "Rows to skip.",
  },
  sort: {
    name: "sort",
    in: "query",
    schema: { type: "string" },
    description:
      "Column to sort by, or several joined by `,` (later ones break ties): by value when all its values are numbers or dates, in the sheet's locale; stable; empty values last.",
  },
  order: {
    name: "order",
    in: "query",
    schema: {
      anyOf: [
        { type: "string", enum: ["asc", "desc"] },
        { type: "string", pattern: "^(asc|desc)(,(asc|desc))+$" },
      ],
      default: "asc",
    },
    description:
      "`asc` or `desc` for every sort column, or one per sort column (`asc,desc`). Without `sort`, `desc` gives the sheet's rows last first.",
  },
  filter: {
    name: "filter",
    in: "query",
    schema: { type: "string" },
    description:
      "Conditions joined by `,`, all of which must hold: `column` + operator + value. `=` equals (`a=x|y`: any of them; `a=` is empty), `!=` differs (`a!=x|y`: none of them; `a!=` is not empty), `>` `>=` `<` `<=` (by value for numbers and for dates in date columns), `~` contains (case-insensitive), `~=` equals ignoring case, with `*` for any text (`name~=desk*` starts with, `*lamp` ends with, `*oak*` contains; `x|y` any). Numbers and dates in `=` and `!=` compare by value (`price=24.5` matches `$24.50`); ids always exactly (`id=05` is not row 5). Escape `,` `|` `\\` (and `*` in `~=`) with `\\`.",
  },
  or: {
    name: "or",
    in: "query",
    schema: { type: "array", items: { type: "string" } },
    style: "form",
    explode: true,
    description:
      "Conditions joined by `,` of which at least one must hold (OR across columns), in the `filter` syntax; ANDed with `filter` and with any other `or` parameter.",
  },
  select: {
    name: "select",
    in: "query",
    schema: { type: "string" },
    description: "Columns to return, comma-separated (and `id`).",
  },
  formulas: {
    name: "formulas",
    in: "query",
    schema: { type: "boolean", default: false },
    description:
      'Cells holding a formula answer with the formula (`=B2*C2`) instead of its result; other cells as usual (typed with `typed=true`). Only for keys the sheet\'s owner allowed to read formulas (dashboard, API keys, "Can read formulas"): other keys get 403 `forbidden`. The first such read of a cached copy costs one Google call; later ones none.',
  },
  typed: {
    name: "typed",
    in: "query",
    schema: { type: "boolean", default: false },
    description:
      "Numbers, booleans and nulls by column type instead of display strings, read in the sheet's locale; dates as ISO 8601 (date columns `2024-01-15`, datetime columns with the sheet's time-zone offset), built from the cell's underlying value, so a display without the year (`Jan 15`) still gives the full date. Rows then have the tab's `TypedRow` shape, else its `Row` shape (display strings): a read declares either (`anyOf`), as OpenAPI cannot tie a schema to a query value.",
  },
  "If-None-Match": {
    name: "If-None-Match",
    in: "header",
    schema: { type: "string" },
    description: "An ETag from an earlier read: 304 with no body when the answer would be the same.",
  },
  "If-Match": {
    name: "If-Match",
    in: "header",
    schema: { type: "string" },
    description: "The row's ETag from your read: 412 and nothing changed when the row changed since.",
  },
  "Idempotency-Key": {
    name: "Idempotency-Key",
    in: "header",
    schema: { type: "string", minLength: 1, maxLength: 255, pattern: "^[\\x21-\\x7E]+$" },
    description:
      "1-255 visible ASCII characters (a UUID): a retry with the same key and body gets the first answer (`Idempotent-Replayed: true`) for 24 hours; another body with it is 409.",
  },
};
