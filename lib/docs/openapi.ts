// The sheet's API as an OpenAPI 3.1 document, generated from the tab model: one path per tab and
// row, per-tab row schemas, the X-API-Key scheme, the error envelope, the rate-limit headers and
// the 429 body. GET /docs/{sheetId}/openapi.json serves it; the docs page shows the same facts.
import pkg from "@/package.json";
import { MAX_LIMIT } from "@/lib/sheets/query";
import type { ColumnModel, TabModel } from "@/lib/sheets/tab-model";
import { ERROR_STATUS } from "@/lib/http/errors";
import { DOCUMENTED_ERRORS, documentedError } from "./errors";
import { exampleCreateBody, exampleId, exampleUpdateBody, tabPath, type SheetDocs } from "./sheet-docs";

type Json = Record<string, unknown>;
const ref = (kind: string, name: string) => ({ $ref: `#/components/${kind}/${name}` });

/** Schema names for tabs: letters, digits and `_`, unique within the sheet. */
export function tabIdentifiers(tabs: TabModel[]): Map<string, string> {
  const used = new Set<string>();
  const out = new Map<string, string>();
  for (const tab of tabs) {
    const base = tab.name.normalize("NFKD").replace(/[\u0300-\u036f]/g, "").replace(/[^A-Za-z0-9]+/g, "_").replace(/^_+|_+$/g, "") || "Tab";
    let name = /^[0-9]/.test(base) ? `Tab_${base}` : base;
    for (let n = 2; used.has(name); n++) name = `${base}_${n}`;
    used.add(name);
    out.set(tab.name, name);
  }
  return out;
}

const LIMIT_HEADERS = {
  "X-RateLimit-Limit": { description: "Requests allowed in the window with the least remaining.", schema: { type: "integer" } },
  "X-RateLimit-Remaining": { description: "Requests left in that window.", schema: { type: "integer" } },
  "X-RateLimit-Reset": { description: "When that window frees capacity, Unix seconds.", schema: { type: "integer" } },
  RateLimit: { description: "IETF RateLimit field: `limit=, remaining=, reset=` (seconds).", schema: { type: "string" } },
  "RateLimit-Policy": { description: "IETF RateLimit-Policy field: every window of the plan, `limit;w=seconds`.", schema: { type: "string" } },
  "X-Request-Id": { description: "This request's id; quote it to support.", schema: { type: "string" } },
};
const headerRefs = Object.fromEntries(Object.keys(LIMIT_HEADERS).map((h) => [h, ref("headers", h)]));

function errorResponses(names: string[]): Json {
  const out: Json = { "429": ref("responses", "RateLimited") };
  for (const name of names) out[String(documentedError(name).status)] = ref("responses", name);
  return out;
}

const valueSchema = { type: ["string", "number", "boolean", "null"], description: "Written as entered (never as a formula); null clears the cell." };

function rowSchemas(tab: TabModel, docs: SheetDocs): Record<string, Json> {
  const example = docs.examples.get(tab.name)?.rows[0];
  const col = (c: ColumnModel) => [c.name, { type: "string", description: `Column type: ${c.type}. Values are strings as the sheet shows them; ?typed=true converts them.` }];
  const rowProps = Object.fromEntries([...(tab.hasIdColumn ? [] : [["id", { type: "string", description: "Row number in the sheet (header = 1); moves when rows above are deleted." }]]), ...tab.columns.map(col)]);
  const inputProps = Object.fromEntries(tab.columns.map((c) => [c.name, valueSchema]));
  // `id` cannot change through an update.
  const patchProps = Object.fromEntries(Object.entries(inputProps).filter(([name]) => name !== "id"));
  return {
    Row: { type: "object", properties: rowProps, required: Object.keys(rowProps), ...(example ? { examples: [example] } : {}) },
    RowInput: { type: "object", properties: inputProps, additionalProperties: false, minProperties: 1, examples: [exampleCreateBody(docs, tab)] },
    RowPatch: { type: "object", properties: patchProps, additionalProperties: false, minProperties: 1, examples: [exampleUpdateBody(docs, tab)] },
  };
}

const jsonBody = (schema: Json) => ({ content: { "application/json": { schema } } });
const okResponse = (description: string, schema: Json) => ({ description, headers: headerRefs, ...jsonBody(schema) });
const envelope = (data: Json) => ({ type: "object", required: ["success", "data"], properties: { success: { const: true }, data } });

function tabPaths(tab: TabModel, id: string, docs: SheetDocs): Record<string, Json> {
  const row = ref("schemas", `${id}_Row`);
  const rowId = { name: "rowId", in: "path", required: true, schema: { type: "string" }, example: exampleId(docs, tab), description: tab.hasIdColumn ? "The row's `id` value." : "The row number in the sheet." };
  const tag = [tab.name];
  return {
    [tabPath(docs, tab)]: {
      get: {
        operationId: `list_${id}`, tags: tag, summary: `List rows of ${tab.name}`, description: "Permission: Read.",
        parameters: ["limit", "offset", "sort", "order", "filter", "select", "typed"].map((p) => ref("parameters", p)),
        responses: { "200": okResponse("The matching rows, paged.", { ...envelope({ type: "array", items: row }), required: ["success", "data", "meta"], properties: { success: { const: true }, data: { type: "array", items: row }, meta: ref("schemas", "Meta") } }), ...errorResponses(["Unauthorized", "Forbidden", "NotFound", "ValidationError", "BadGateway", "ServiceUnavailable"]) },
      },
      post: {
        operationId: `create_${id}`, tags: tag, summary: `Create rows in ${tab.name}`, description: "Permission: Write. One row, or an array of up to 1,000, appended in one write; rows without an `id` get the next integer.",
        requestBody: { required: true, ...jsonBody({ oneOf: [ref("schemas", `${id}_RowInput`), { type: "array", items: ref("schemas", `${id}_RowInput`), minItems: 1, maxItems: 1000 }] }) },
        responses: { "201": okResponse("The rows as written, each with its id.", envelope({ type: "object", required: ["created", "rows"], properties: { created: { type: "integer" }, rows: { type: "array", items: row } } })), ...errorResponses(["Unauthorized", "Forbidden", "NotFound", "ValidationError", "Conflict", "PayloadTooLarge", "UnsupportedMediaType", "BadGateway", "ServiceUnavailable"]) },
      },
    },
    [`${tabPath(docs, tab)}/{rowId}`]: {
      parameters: [rowId],
      get: {
        operationId: `get_${id}`, tags: tag, summary: `Get one row of ${tab.name}`, description: "Permission: Read.",
        parameters: [ref("parameters", "select"), ref("parameters", "typed")],
        responses: { "200": okResponse("The row.", envelope(row)), ...errorResponses(["Unauthorized", "Forbidden", "NotFound", "ValidationError", "BadGateway", "ServiceUnavailable"]) },
      },
      put: {
        operationId: `update_${id}`, tags: tag, summary: `Update a row of ${tab.name}`, description: "Permission: Write. Only the cells named in the body change; `id` cannot change.",
        requestBody: { required: true, ...jsonBody(ref("schemas", `${id}_RowPatch`)) },
        responses: { "200": okResponse("The whole row after the update.", envelope(row)), ...errorResponses(["Unauthorized", "Forbidden", "NotFound", "ValidationError", "PreconditionFailed", "PayloadTooLarge", "UnsupportedMediaType", "BadGateway", "ServiceUnavailable", "GatewayTimeout"]) },
      },
      delete: {
        operationId: `delete_${id}`, tags: tag, summary: `Delete a row of ${tab.name}`, description: "Permission: Write. Removes exactly the row with this id.",
        responses: { "200": okResponse("Deleted.", { type: "object", required: ["success", "message"], properties: { success: { const: true }, message: { type: "string" } } }), ...errorResponses(["Unauthorized", "Forbidden", "NotFound", "PreconditionFailed", "BadGateway", "ServiceUnavailable", "GatewayTimeout"]) },
      },
    },
  };
}

const QUERY_PARAMETERS = {
  limit: { name: "limit", in: "query", schema: { type: "integer", minimum: 1, maximum: MAX_LIMIT, default: 100 }, description: "Rows to return." },
  offset: { name: "offset", in: "query", schema: { type: "integer", minimum: 0, default: 0 }, description: "Rows to skip." },
  sort: { name: "sort", in: "query", schema: { type: "string" }, description: "Column to sort by (by value when all its values are numbers or dates, in the sheet's locale; stable; empty values last)." },
  order: { name: "order", in: "query", schema: { type: "string", enum: ["asc", "desc"], default: "asc" } },
  filter: { name: "filter", in: "query", schema: { type: "string" }, description: "Conditions joined by `,` (AND): `column` + `=`, `!=`, `>`, `>=`, `<`, `<=` or `~` (contains) + value; `a=x|y` matches either; escape `,` `|` `\\` with `\\`." },
  select: { name: "select", in: "query", schema: { type: "string" }, description: "Columns to return, comma-separated (and `id`)." },
  typed: { name: "typed", in: "query", schema: { type: "boolean", default: false }, description: "Numbers, booleans and nulls by column type instead of display strings, read in the sheet's locale; dates as ISO 8601 (date columns `2024-01-15`, datetime columns with the sheet's time-zone offset)." },
};

function components(docs: SheetDocs, ids: Map<string, string>): Json {
  const schemas: Json = {
    Error: { type: "object", required: ["success", "error", "message"], properties: { success: { const: false }, error: { type: "string", enum: Object.keys(ERROR_STATUS) }, message: { type: "string" } } },
    RateLimitError: {
      allOf: [ref("schemas", "Error")],
      type: "object",
      required: ["retry_after", "limit"],
      properties: {
        retry_after: { type: "integer", description: "Seconds to wait." },
        limit: { type: "object", required: ["allowed", "current", "reset_at"], properties: { allowed: { type: "integer" }, current: { type: "integer" }, reset_at: { type: "integer", description: "Unix seconds." } } },
      },
    },
    Meta: { type: "object", required: ["total", "limit", "offset", "returned"], properties: { total: { type: "integer" }, limit: { type: "integer" }, offset: { type: "integer" }, returned: { type: "integer" } } },
  };
  for (const tab of docs.model.tabs) for (const [name, schema] of Object.entries(rowSchemas(tab, docs))) schemas[`${ids.get(tab.name)}_${name}`] = schema;
  const responses: Json = {
    RateLimited: {
      description: `${documentedError("RateLimited").when} Plan limits (${docs.plan.label}: ${docs.plan.burst}/min, ${docs.plan.hour}/hour, ${docs.plan.day}/day, ${docs.plan.month}/billing period).`,
      headers: { ...headerRefs, "Retry-After": { description: "Seconds to wait.", schema: { type: "integer" } } },
      ...jsonBody(ref("schemas", "RateLimitError")),
    },
  };
  for (const e of DOCUMENTED_ERRORS) if (e.name !== "RateLimited") responses[e.name] = { description: e.when, headers: headerRefs, ...jsonBody(ref("schemas", "Error")) };
  return { securitySchemes: { ApiKey: { type: "apiKey", in: "header", name: "X-API-Key" } }, headers: LIMIT_HEADERS, parameters: QUERY_PARAMETERS, schemas, responses };
}

function sheetPaths(docs: SheetDocs): Json {
  const schemaDoc = envelope({
    type: "object",
    required: ["sheet_id", "sheet_name", "tabs"],
    properties: {
      sheet_id: { type: "string" },
      sheet_name: { type: "string" },
      tabs: { type: "array", items: { type: "object", properties: { name: { type: "string" }, columns: { type: "array", items: { type: "object", properties: { name: { type: "string" }, type: { type: "string" } } } } } } },
    },
  });
  return {
    [`/api/${docs.sheet.id}/schema`]: {
      get: { operationId: "getSchema", tags: ["Schema"], summary: "Tabs and columns with their types", description: "Permission: Schema.", responses: { "200": okResponse("The schema.", schemaDoc), ...errorResponses(["Unauthorized", "Forbidden"]) } },
    },
    [`/api/${docs.sheet.id}/refresh-schema`]: {
      post: {
        operationId: "refreshSchema", tags: ["Schema"], summary: "Read the structure from Google again", description: "Permission: Schema. Drops the cached schema and rows.",
        responses: { "200": okResponse("Refreshed.", { type: "object", properties: { success: { const: true }, message: { type: "string" }, data: { type: "object", properties: { tabs_count: { type: "integer" }, updated_at: { type: "integer", description: "Unix ms." } } } } }), ...errorResponses(["Unauthorized", "Forbidden", "BadGateway", "ServiceUnavailable"]) },
      },
    },
    "/billing/usage": {
      get: {
        operationId: "getUsage", tags: ["Usage"], summary: "The account's use of its plan this billing period", description: "Permission: Analytics. Not counted toward limits, and answered past them.",
        responses: {
          "200": okResponse("Usage.", envelope({ type: "object", required: ["current_period", "daily_average", "projected_usage"], properties: { current_period: { type: "object", properties: { start: { type: "string", format: "date-time" }, end: { type: "string", format: "date-time" }, requests_used: { type: "integer" }, requests_limit: { type: "integer" }, percentage_used: { type: "number" } } }, daily_average: { type: "number" }, projected_usage: { type: "number" } } })),
          "401": ref("responses", "Unauthorized"),
          "403": ref("responses", "Forbidden"),
        },
      },
    },
  };
}

export function openApiDocument(docs: SheetDocs): Json {
  const ids = tabIdentifiers(docs.model.tabs);
  const paths: Json = {};
  for (const tab of docs.model.tabs) Object.assign(paths, tabPaths(tab, ids.get(tab.name)!, docs));
  Object.assign(paths, sheetPaths(docs));
  return {
    openapi: "3.1.0",
    info: {
      title: `${docs.model.title} API`,
      version: pkg.version,
      description: `REST API of the spreadsheet "${docs.model.title}": each tab is a collection, each row an item. Every answer carries \`success\`; errors are \`{ success: false, error, message }\`. Docs: ${docs.baseUrl}/docs/${docs.sheet.id}`,
    },
    servers: [{ url: docs.baseUrl }],
    security: [{ ApiKey: [] }],
    tags: [...docs.model.tabs.map((t) => ({ name: t.name, description: `Rows of the tab "${t.name}".` })), { name: "Schema" }, { name: "Usage" }],
    paths,
    components: components(docs, ids),
  };
}
