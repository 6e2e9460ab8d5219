// Each tab's row schemas: a row as read (display strings, or typed with `?typed=true`) and the
// bodies its writes take.
import type { ColumnModel, TabModel } from "@/lib/sheets/values/tab-model";
import { enteredAs, exampleCreateBody, exampleUpdateBody, type SheetDocs } from "../sheet-docs";
import { examplesOf, type Json } from "./refs";

const valueSchema = (docs: SheetDocs) => ({
  type: ["string", "number", "boolean", "null"],
  description: `${enteredAs(docs.sheet)} null clears the cell.`,
});

/** A column as `?typed=true` answers it: by type, and as the displayed text when it does not read as one; empty cells are null. */
function typedColumn(c: ColumnModel): Json {
  const description = `Column type: ${c.type}. An empty cell is null.`;
  switch (c.type) {
    case "number":
    case "currency":
    case "percent":
      return {
        type: ["number", "string", "null"],
        description: `${description} A number (a percent as its fraction: "15%" is 0.15); text that is not a number stays text.`,
      };
    case "boolean":
      return {
        type: ["boolean", "string", "null"],
        description: `${description} TRUE and FALSE are booleans; other text stays text.`,
      };
    // No `format`: a cell of a date column may hold any text, and it comes back as that text; a
    // validator or a client generated with `format: date` would refuse the whole answer.
    case "date":
      return {
        type: ["string", "null"],
        description: `${description} An ISO 8601 date (YYYY-MM-DD; a cell that also holds a time, as a date-time); text that is not a date stays text.`,
      };
    case "datetime":
      return {
        type: ["string", "null"],
        description: `${description} An ISO 8601 date-time with the sheet's UTC offset; text that is not a date stays text.`,
      };
    default:
      return { type: ["string", "null"], description };
  }
}

export function rowSchemas(tab: TabModel, docs: SheetDocs): Record<string, Json> {
  const example = docs.examples.get(tab.name)?.rows[0];
  const rowNumber = "Row number in the sheet (header = 1); moves when rows above are deleted.";
  const rowProps = Object.fromEntries([
    ...(tab.hasIdColumn ? [] : [["id", { type: "string", description: rowNumber }]]),
    ...tab.columns.map((c) => [
      c.name,
      { type: "string", description: `Column type: ${c.type}. The value as the sheet shows it; an empty cell is "".` },
    ]),
  ]);
  const typedProps = Object.fromEntries([
    ...(tab.hasIdColumn ? [] : [["id", { type: "integer", description: rowNumber }]]),
    ...tab.columns.map((c) => [c.name, typedColumn(c)]),
  ]);
  const value = valueSchema(docs);
  const inputProps = Object.fromEntries(tab.columns.map((c) => [c.name, value]));
  // Array PATCH finds each row by `?key=`, `id` by default: on a tab without an id column, the row number.
  const keyedProps = tab.hasIdColumn
    ? inputProps
    : {
        id: {
          type: ["string", "integer"],
          description: `${rowNumber} With the default \`?key=id\`, which row to update.`,
        },
        ...inputProps,
      };
  // `id` cannot change through an update.
  const patchProps = Object.fromEntries(Object.entries(inputProps).filter(([name]) => name !== "id"));
  // `select` answers a subset of the columns: only `id` always comes. Open to more: a column
  // added to the sheet later comes in the answers before a client made from this document knows it.
  const subset =
    "`select` returns only the columns asked for, and `id` always. A column added to the sheet later comes as one more property.";
  return {
    Row: {
      type: "object",
      description: `A row, values as the sheet shows them. ${subset}`,
      properties: rowProps,
      required: ["id"],
      ...(example ? { examples: [example] } : {}),
    },
    TypedRow: {
      type: "object",
      description: `A row with \`?typed=true\`: numbers, booleans and nulls by column type. ${subset}`,
      properties: typedProps,
      required: ["id"],
    },
    // A tab without columns has no valid body to show: no example rather than an invalid `{}`.
    RowInput: {
      type: "object",
      properties: inputProps,
      additionalProperties: false,
      minProperties: 1,
      ...examplesOf(exampleCreateBody(docs, tab)),
    },
    RowPatch: {
      type: "object",
      properties: patchProps,
      additionalProperties: false,
      minProperties: 1,
      ...examplesOf(exampleUpdateBody(docs, tab)),
    },
    // One item of an array PATCH: the row's new cells and the `?key=` column that finds it.
    RowByKey: { type: "object", properties: keyedProps, additionalProperties: false, minProperties: 1 },
    // PUT and PATCH of one row: a row read and sent back whole carries its own id, which is no change.
    RowUpdate: {
      type: "object",
      properties: {
        ...patchProps,
        id: {
          type: ["string", "number"],
          description:
            "Optional: the row's own id, as read (a row sent back whole is no change to it). Any other value answers 400: id cannot change. The body must name at least one other column.",
        },
      },
      additionalProperties: false,
      minProperties: 1,
      // `{ "id": ... }` alone changes nothing and answers 400.
      not: { type: "object", properties: { id: true }, required: ["id"], maxProperties: 1 },
      ...examplesOf(exampleUpdateBody(docs, tab)),
    },
  };
}
