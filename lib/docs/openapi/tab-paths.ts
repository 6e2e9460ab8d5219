// A tab's paths: list, create, update and delete by filter, one row by id, CSV, aggregate and
// distinct values, each with its permission, parameters, bodies and answers.
import { MAX_CSV_ROWS } from "@/lib/sheets/read/query";
import type { TabModel } from "@/lib/sheets/values/tab-model";
import { exampleColumn, exampleId, exampleWriteFilter, tabPath, type SheetDocs } from "../sheet-docs";
import { aggregateExample, byKeyExample, patchExamples } from "./examples";
import { BROWSER_NOTE, READ_SECURITY } from "./headers";
import { LIST_PARAMETERS, TAB_PARAMETERS } from "./parameters";
import { envelope, errorResponses, jsonBody, notModified, okResponse, ref, withHeaders, type Json } from "./refs";

/** `tag`: the tab's tag; `csvPath`: false when another tab's own path is this tab's `.csv` one (that tab is served there). */
export function tabPaths(
  tab: TabModel,
  id: string,
  docs: SheetDocs,
  { tag: tagName, csvPath }: { tag: string; csvPath: boolean },
): Record<string, Json> {
  const row = ref("schemas", `${id}_Row`);
  // Reads answer display strings, or typed values with `?typed=true`.
  const readRow = { anyOf: [row, ref("schemas", `${id}_TypedRow`)] };
  const rowId = {
    name: "rowId",
    in: "path",
    required: true,
    schema: { type: "string" },
    example: exampleId(docs, tab),
    description: tab.hasIdColumn ? "The row's `id` value." : "The row number in the sheet.",
  };
  const tag = [tagName];
  // A parameter a route refuses to go without carries a value this tab accepts: tools that send
  // only the required parameters (Portman, Prism) send the example. Parameters are per tab for it.
  const writeFilter = exampleWriteFilter(docs, tab);
  const deleteFilter = exampleWriteFilter(docs, tab, { after: true });
  const writeResult = {
    type: "object",
    required: ["created", "rows"],
    properties: {
      created: { type: "integer" },
      updated: { type: "integer", description: "Upserts: rows updated." },
      rows: { type: "array", items: row },
    },
  };
  const update = (method: string) => ({
    operationId: `${method}_${id}`,
    tags: tag,
    summary: `Update a row of ${tab.name}${method === "patch" ? " (same as PUT)" : ""}`,
    description:
      "Permission: Write. Only the cells named in the body change; `id` cannot change (the row's own id, sent back with the row as read, is no change). No query parameters. With If-Match, only if the row is still as read (else 412, nothing changed).",
    parameters: [ref("parameters", "If-Match")],
    requestBody: { required: true, ...jsonBody(ref("schemas", `${id}_RowUpdate`)) },
    responses: {
      "200": okResponse("The whole row after the update, with its new ETag.", envelope(row), withHeaders("ETag")),
      ...errorResponses([
        "Unauthorized",
        "Forbidden",
        "NotFound",
        "ValidationError",
        "PreconditionFailed",
        "PayloadTooLarge",
        "UnsupportedMediaType",
        "BadGateway",
        "ServiceUnavailable",
        "GatewayTimeout",
      ]),
    },
  });
  const csv = {
    [`${tabPath(docs, tab)}.csv`]: {
      get: {
        operationId: `csv_${id}`,
        tags: tag,
        summary: `Rows of ${tab.name} as CSV`,
        description: `Permission: Read. The list query (filter, sort, select, typed, offset) as RFC 4180 CSV with a header line, for tools that cannot set headers (spreadsheets' IMPORTDATA, BI tools); \`limit\` defaults to every matching row, up to ${MAX_CSV_ROWS.toLocaleString("en-US")}. A cell that would run as a formula when the file is opened (starting with = + - @) is prefixed with ', unless it is a number.${BROWSER_NOTE}`,
        security: READ_SECURITY,
        parameters: [
          ref("parameters", "csv_limit"),
          ...LIST_PARAMETERS.filter((p) => p !== "limit").map((p) => ref("parameters", p)),
          ref("parameters", "If-None-Match"),
        ],
        responses: {
          "200": {
            description: "The matching rows as CSV.",
            headers: withHeaders("ETag", "X-Cache", "Last-Modified", "Age", "X-Total-Count"),
            content: { "text/csv": { schema: { type: "string" } } },
          },
          ...notModified,
          ...errorResponses([
            "Unauthorized",
            "Forbidden",
            "NotFound",
            "ValidationError",
            "BadGateway",
            "ServiceUnavailable",
            "GatewayTimeout",
          ]),
        },
      },
    },
  };
  // `Accept: text/csv` on the list answers the same CSV whether or not the `.csv` path exists.
  const csvAlso = csvPath
    ? `, as \`GET ${tabPath(docs, tab)}.csv\` does`
    : ` (the path \`${tabPath(docs, tab)}.csv\` is the tab of that name)`;
  return {
    ...(csvPath ? csv : {}),
    [`${tabPath(docs, tab)}/_aggregate`]: {
      get: {
        operationId: `aggregate_${id}`,
        tags: tag,
        summary: `Count and totals of ${tab.name}'s rows, grouped`,
        description: `Permission: Read. From the cached copy, like a list (no Google call while it is current). Rows kept by \`filter\` and \`or\`, grouped by the \`group_by\` columns' values (groups in value order), with \`count\` and any of \`sum\` \`avg\` \`min\` \`max\` over number, currency and percent columns read by value in the sheet's locale${aggregateExample(tab)}. Empty cells and text that is not a number are left out of sum/avg/min/max; a group without any gives null.${BROWSER_NOTE}`,
        security: READ_SECURITY,
        parameters: ["group_by", "aggregate", "filter", "or", "group_limit", "offset", "typed", "fresh"]
          .map((p) => ref("parameters", p))
          .concat([ref("parameters", "If-None-Match")]),
        responses: {
          "200": okResponse(
            "The groups.",
            {
              type: "object",
              required: ["success", "data", "meta"],
              properties: {
                success: { const: true },
                data: { type: "array", items: ref("schemas", "AggregateGroup") },
                meta: ref("schemas", "AggregateMeta"),
              },
            },
            withHeaders("ETag", "X-Cache", "Last-Modified", "Age"),
          ),
          ...notModified,
          ...errorResponses([
            "Unauthorized",
            "Forbidden",
            "NotFound",
            "ValidationError",
            "BadGateway",
            "ServiceUnavailable",
            "GatewayTimeout",
          ]),
        },
      },
    },
    [`${tabPath(docs, tab)}/_distinct`]: {
      get: {
        operationId: `distinct_${id}`,
        tags: tag,
        summary: `Distinct values of a column of ${tab.name}`,
        description:
          "Permission: Read. The column's values among the rows `filter` and `or` keep, each once, in value order (empty last): what a dropdown offers. From the cached copy." +
          BROWSER_NOTE,
        security: READ_SECURITY,
        parameters: [
          { ...TAB_PARAMETERS.column, example: exampleColumn(tab) },
          ...["filter", "or", "group_limit", "offset", "typed", "fresh", "If-None-Match"].map((p) =>
            ref("parameters", p),
          ),
        ],
        responses: {
          "200": okResponse(
            "The values.",
            {
              type: "object",
              required: ["success", "data", "meta"],
              properties: {
                success: { const: true },
                data: { type: "array", items: { type: ["string", "number", "boolean", "null"] } },
                meta: ref("schemas", "Meta"),
              },
            },
            withHeaders("ETag", "X-Cache", "Last-Modified", "Age"),
          ),
          ...notModified,
          ...errorResponses([
            "Unauthorized",
            "Forbidden",
            "NotFound",
            "ValidationError",
            "BadGateway",
            "ServiceUnavailable",
            "GatewayTimeout",
          ]),
        },
      },
    },
    [tabPath(docs, tab)]: {
      get: {
        operationId: `list_${id}`,
        tags: tag,
        summary: `List rows of ${tab.name}`,
        description: `Permission: Read. With If-None-Match holding the ETag of the same answer: 304, no body. \`Accept: text/csv\` answers the same query as CSV${csvAlso}.${BROWSER_NOTE}`,
        security: READ_SECURITY,
        parameters: [...LIST_PARAMETERS.map((p) => ref("parameters", p)), ref("parameters", "If-None-Match")],
        // The CSV answer of `Accept: text/csv` is documented on the `.csv` path alone: a second
        // content type here would make every typed client's list data a union with a string.
        responses: {
          "200": okResponse(
            "The matching rows, paged.",
            {
              type: "object",
              required: ["success", "data", "meta"],
              properties: {
                success: { const: true },
                data: { type: "array", items: readRow },
                meta: ref("schemas", "Meta"),
              },
            },
            withHeaders("ETag", "X-Cache", "Last-Modified", "Age"),
          ),
          ...notModified,
          ...errorResponses([
            "Unauthorized",
            "Forbidden",
            "NotFound",
            "ValidationError",
            "BadGateway",
            "ServiceUnavailable",
            "GatewayTimeout",
          ]),
        },
      },
      post: {
        operationId: `create_${id}`,
        tags: tag,
        summary: `Create rows in ${tab.name}, or upsert them by a key column`,
        description:
          "Permission: Write; with `?upsert=`, Read too (each row is looked up by its key and the matched rows are answered). One row, or an array of up to 1,000, appended in one write; rows without an `id` get the next integer. With `?upsert=column`, a row whose key matches a row of the tab updates that row's named cells and the others are appended, all in one write (201 when any row was created, else 200); If-Match then lists the ETags of the rows it updates. With an Idempotency-Key, a retry gets the first answer again and writes nothing.",
        parameters: [
          ref("parameters", "upsert"),
          ref("parameters", "If-Match-Rows"),
          ref("parameters", "Idempotency-Key"),
        ],
        requestBody: {
          required: true,
          ...jsonBody({
            oneOf: [
              ref("schemas", `${id}_RowInput`),
              { type: "array", items: ref("schemas", `${id}_RowInput`), minItems: 1, maxItems: 1000 },
            ],
          }),
        },
        responses: {
          "201": okResponse(
            "The rows as written, each with its id (in body order).",
            envelope(writeResult),
            withHeaders("Idempotent-Replayed"),
          ),
          "200": okResponse(
            "An upsert that created nothing: every row was an update.",
            envelope(writeResult),
            withHeaders("Idempotent-Replayed"),
          ),
          ...errorResponses([
            "Unauthorized",
            "Forbidden",
            "NotFound",
            "ValidationError",
            "Conflict",
            "PreconditionFailed",
            "PayloadTooLarge",
            "UnsupportedMediaType",
            "BadGateway",
            "ServiceUnavailable",
            "GatewayTimeout",
          ]),
        },
      },
      patch: {
        operationId: `updateMany_${id}`,
        tags: tag,
        summary: `Update the rows of ${tab.name} a filter matches, or many rows by a key`,
        description: `Permission: Write; with \`?filter=\`, \`or\`, \`dry_run\` or a \`?key=\` other than \`id\`, Read too (the rows are chosen by their values and answered). An object with \`?filter=\` (required; \`or\` too): its cells are written to every matching row, at most \`limit\` of them (default 1; more matches answer 409 and change nothing); \`dry_run=true\` answers the matches and their ETags without writing. An array: each row is found by its \`?key=\` column (default \`id\`) and gets its own values (404 and nothing changed if one is missing). One atomic write either way; with If-Match, every changed row must still be as read (else 412).${byKeyExample(tab)}`,
        parameters: [
          { ...TAB_PARAMETERS.patch_filter, example: writeFilter },
          ...["or", "write_limit", "dry_run", "key", "If-Match-Rows", "Idempotency-Key"].map((p) =>
            ref("parameters", p),
          ),
        ],
        requestBody: {
          required: true,
          content: {
            "application/json": {
              schema: {
                oneOf: [
                  ref("schemas", `${id}_RowPatch`),
                  { type: "array", items: ref("schemas", `${id}_RowByKey`), minItems: 1, maxItems: 1000 },
                ],
              },
              ...patchExamples(docs, tab, writeFilter),
            },
          },
        },
        responses: {
          "200": okResponse(
            "What matched and the rows after the update (as now, for a dry run), with their ETags.",
            envelope({
              type: "object",
              required: ["matched", "updated", "dry_run", "rows", "etags"],
              properties: {
                matched: { type: "integer" },
                updated: { type: "integer" },
                dry_run: { type: "boolean" },
                rows: { type: "array", items: row },
                etags: { type: "array", items: { type: "string" } },
              },
            }),
            withHeaders("Idempotent-Replayed"),
          ),
          ...errorResponses([
            "Unauthorized",
            "Forbidden",
            "NotFound",
            "ValidationError",
            "Conflict",
            "PreconditionFailed",
            "PayloadTooLarge",
            "UnsupportedMediaType",
            "BadGateway",
            "ServiceUnavailable",
            "GatewayTimeout",
          ]),
        },
      },
      delete: {
        operationId: `deleteMany_${id}`,
        tags: tag,
        summary: `Delete the rows of ${tab.name} a filter matches`,
        description:
          "Permission: Write and Read (the rows are chosen by their values and answered). `?filter=` is required (`or` too); at most `limit` rows (default 1; more matches answer 409 and delete nothing), in one atomic write; `dry_run=true` answers the matches without deleting. With If-Match, every row must still be as read (else 412).",
        parameters: [
          { ...TAB_PARAMETERS.filter_required, example: deleteFilter },
          ...["or", "write_limit", "dry_run", "If-Match-Rows", "Idempotency-Key"].map((p) => ref("parameters", p)),
        ],
        responses: {
          "200": okResponse(
            "What matched and what was deleted.",
            {
              type: "object",
              required: ["success", "message", "data"],
              properties: {
                success: { const: true },
                message: { type: "string" },
                data: {
                  type: "object",
                  required: ["matched", "deleted", "dry_run", "ids", "etags"],
                  properties: {
                    matched: { type: "integer" },
                    deleted: { type: "integer" },
                    dry_run: { type: "boolean" },
                    ids: { type: "array", items: { type: "string" } },
                    etags: { type: "array", items: { type: "string" } },
                  },
                },
              },
            },
            withHeaders("Idempotent-Replayed"),
          ),
          ...errorResponses([
            "Unauthorized",
            "Forbidden",
            "NotFound",
            "ValidationError",
            "Conflict",
            "PreconditionFailed",
            "BadGateway",
            "ServiceUnavailable",
            "GatewayTimeout",
          ]),
        },
      },
    },
    [`${tabPath(docs, tab)}/{rowId}`]: {
      parameters: [rowId],
      get: {
        operationId: `get_${id}`,
        tags: tag,
        summary: `Get one row of ${tab.name}`,
        description:
          "Permission: Read. The ETag is the row's state whatever `select` or `typed` asked; with If-None-Match holding it: 304, no body." +
          BROWSER_NOTE,
        security: READ_SECURITY,
        parameters: [
          ref("parameters", "select"),
          ref("parameters", "typed"),
          ref("parameters", "formulas"),
          ref("parameters", "fresh"),
          ref("parameters", "If-None-Match"),
        ],
        responses: {
          "200": okResponse("The row.", envelope(readRow), withHeaders("ETag", "X-Cache", "Last-Modified", "Age")),
          ...notModified,
          ...errorResponses([
            "Unauthorized",
            "Forbidden",
            "NotFound",
            "ValidationError",
            "BadGateway",
            "ServiceUnavailable",
            "GatewayTimeout",
          ]),
        },
      },
      put: update("update"),
      patch: update("patch"),
      delete: {
        operationId: `delete_${id}`,
        tags: tag,
        summary: `Delete a row of ${tab.name}`,
        description:
          "Permission: Write. Removes exactly the row with this id (it takes no query parameters: any, `dry_run` included, answers 400 and deletes nothing). With If-Match, only if the row is still as read (else 412, nothing deleted).",
        parameters: [ref("parameters", "If-Match")],
        responses: {
          "200": okResponse("Deleted.", {
            type: "object",
            required: ["success", "message"],
            properties: { success: { const: true }, message: { type: "string" } },
          }),
          ...errorResponses([
            "Unauthorized",
            "Forbidden",
            "NotFound",
            "ValidationError",
            "PreconditionFailed",
            "BadGateway",
            "ServiceUnavailable",
            "GatewayTimeout",
          ]),
        },
      },
    },
  };
}
