// The sheet's API as an OpenAPI 3.1 document, generated from the tab model: one path per tab and
// row, per-tab row schemas, the X-API-Key scheme, the error envelope, the rate-limit headers and
// the 429 body. GET /docs/{sheetId}/openapi.json serves it; the docs page shows the same facts.
import pkg from "@/package.json";
import { MAX_GROUPS } from "@/lib/sheets/read/aggregate";
import { MAX_CSV_ROWS, MAX_LIMIT } from "@/lib/sheets/read/query";
import { COLUMN_TYPES, type ColumnModel, type TabModel } from "@/lib/sheets/values/tab-model";
import { ERROR_STATUS } from "@/lib/errors";
import { DOCUMENTED_ERRORS, documentedError } from "./errors";
import { enteredAs, exampleColumn, exampleCreateBody, exampleId, exampleKeyColumn, exampleRewriteBody, exampleUpdateBody, exampleWriteFilter, tabPath, type SheetDocs } from "./sheet-docs";

type Json = Record<string, unknown>;
const ref = (kind: string, name: string) => ({ $ref: `#/components/${kind}/${name}` });

// The sheet-level tags, operations and shared schemas; a tab's must never be taken for one of them.
const FIXED_TAGS = ["Schema", "Events", "Usage"];
const SHEET_OPERATIONS = ["getSchema", "refreshSchema", "listEvents", "getUsage", "receiveSheetChange"];
const SHARED_SCHEMAS = ["Error", "RateLimitError", "AggregateGroup", "AggregateMeta", "Meta", "EventData"];
// Each tab's operation ids are `{verb}_{id}` and its schemas `{id}_{suffix}` (tabPaths, rowSchemas).
const TAB_OPERATIONS = ["list", "get", "create", "update", "patch", "delete", "updateMany", "deleteMany", "csv", "aggregate", "distinct"];
const TAB_SCHEMAS = ["Row", "TypedRow", "RowInput", "RowPatch", "RowUpdate", "RowByKey"];

/** A name as code generators see it: they camel-case ids, so case and `_` do not tell names apart. */
const asGenerated = (name: string) => name.replace(/_/g, "").toLowerCase();

/**
 * Schema names for tabs: letters, digits and `_`, unique within the sheet as code generators
 * see them: no operation id or schema name of one tab may read as another's or as a sheet-level
 * one once camel-cased (`list_team_members` and `list_TeamMembers` are both `listTeamMembers`,
 * `deleteMany_Orders` and `delete_Many_Orders` both `deleteManyOrders`, `get_Schema` is `getSchema`).
 */
export function tabIdentifiers(tabs: TabModel[]): Map<string, string> {
  const used = new Set([...SHEET_OPERATIONS, ...SHARED_SCHEMAS].map(asGenerated));
  const namesOf = (id: string) => [...TAB_OPERATIONS.map((verb) => `${verb}_${id}`), ...TAB_SCHEMAS.map((suffix) => `${id}_${suffix}`)].map(asGenerated);
  const out = new Map<string, string>();
  for (const tab of tabs) {
    const base = tab.name.normalize("NFKD").replace(/[\u0300-\u036f]/g, "").replace(/[^A-Za-z0-9]+/g, "_").replace(/^_+|_+$/g, "") || "Tab";
    const first = /^[0-9]/.test(base) ? `Tab_${base}` : base;
    let name = first;
    for (let n = 2; namesOf(name).some((x) => used.has(x)); n++) name = `${first}_${n}`;
    for (const x of namesOf(name)) used.add(x);
    out.set(tab.name, name);
  }
  return out;
}

/**
 * Each tab's tag: its name, unless that reads as a sheet-level tag or an earlier tab's once case
 * and `_` are set aside (tag names must be unique, and generators name classes after them).
 */
function tabTags(tabs: TabModel[]): Map<string, string> {
  const used = new Set(FIXED_TAGS.map(asGenerated));
  return new Map(
    tabs.map((t) => {
      let tag = t.name;
      for (let n = 1; used.has(asGenerated(tag)); n++) tag = n === 1 ? `${t.name} (tab)` : `${t.name} (tab ${n})`;
      used.add(asGenerated(tag));
      return [t.name, tag];
    }),
  );
}

const LIMIT_HEADERS = {
  "X-RateLimit-Limit": { description: "Requests allowed in the window with the least remaining.", schema: { type: "integer" } },
  "X-RateLimit-Remaining": { description: "Requests left in that window.", schema: { type: "integer" } },
  "X-RateLimit-Reset": { description: "When that window frees capacity, Unix seconds.", schema: { type: "integer" } },
  RateLimit: { description: "IETF RateLimit field: `limit=, remaining=, reset=` (seconds).", schema: { type: "string" } },
  "RateLimit-Policy": { description: "IETF RateLimit-Policy field: every window of the plan, `limit;w=seconds`.", schema: { type: "string" } },
  "X-Request-Id": { description: "This request's id; quote it to support.", schema: { type: "string" } },
};
// Beyond the limit headers: what reads, updates and idempotent creates answer with.
const OTHER_HEADERS = {
  ETag: { description: "The representation's entity tag: of the body as sent, its rows and meta (lists), of the row's state (one row). Send it back in If-None-Match or If-Match.", schema: { type: "string" } },
  "X-Cache": { description: "Where the rows came from: `HIT` (cached, unchanged), `MISS` (read from Google now) or `STALE` (Google unreachable, or slower than 2 s: the last good copy within the sheet's stale bound).", schema: { type: "string", enum: ["HIT", "MISS", "STALE"] } },
  "Idempotent-Replayed": { description: "`true` when this is the kept answer of an earlier request with the same Idempotency-Key: nothing was written again.", schema: { type: "string", enum: ["true"] } },
  "Retry-After": { description: "Seconds to wait before retrying.", schema: { type: "integer" } },
  "Last-Modified": { description: "When the rows (or the schema) answered were read from Google: the answer reflects the sheet as it was then.", schema: { type: "string" } },
  Age: { description: "Seconds since that read (0 when read for this request).", schema: { type: "integer" } },
  "X-Total-Count": { description: "Rows matching the query (CSV answers, which have no `meta`).", schema: { type: "integer" } },
  "WWW-Authenticate": { description: "The scheme a key is accepted in: `Bearer` (or the X-API-Key header).", schema: { type: "string" } },
};
const SECURITY_SCHEMES = {
  ApiKey: { type: "apiKey", in: "header", name: "X-API-Key", description: "A secret key (`shk_…`), for servers: it holds the permissions each operation names." },
  Bearer: { type: "http", scheme: "bearer", description: "The same key as `Authorization: Bearer <key>`." },
  BrowserKey: {
    type: "apiKey",
    in: "header",
    name: "X-API-Key",
    description:
      "A browser (publishable) key (`shp_…`), safe in a web page: only the row reads (operations that list this scheme), only from the origins its owner listed " +
      "(exact `scheme://host[:port]`, or `https://*.example.com` for subdomains): the answer then carries `Access-Control-Allow-Origin` naming the origin and `Vary: Origin`; " +
      "a missing or unlisted `Origin` answers 403 `forbidden`. Tabs its owner did not choose answer 404; columns not chosen are absent, and naming one in a query answers 400. " +
      "Each visitor address has its own requests-per-minute limit on top of the plan (429 with the usual headers).",
  },
};
/** Row reads: secret keys with Read, and browser keys. */
const READ_SECURITY = [{ ApiKey: [] }, { Bearer: [] }, { BrowserKey: [] }];
const BROWSER_NOTE = " Browser (publishable) keys may call it, from their listed origins, within their tabs and columns.";

const headerRefs = Object.fromEntries(Object.keys(LIMIT_HEADERS).map((h) => [h, ref("headers", h)]));
const withHeaders = (...names: (keyof typeof OTHER_HEADERS)[]) => ({ ...headerRefs, ...Object.fromEntries(names.map((h) => [h, ref("headers", h)])) });

/** Error responses of an operation; every operation can also answer 429 and 500. */
function errorResponses(names: string[]): Json {
  const out: Json = { "429": ref("responses", "RateLimited"), "500": ref("responses", "ServerError") };
  for (const name of names) out[String(documentedError(name).status)] = ref("responses", name);
  return out;
}

const valueSchema = (docs: SheetDocs) => ({ type: ["string", "number", "boolean", "null"], description: `${enteredAs(docs.sheet)} null clears the cell.` });

/** A column as `?typed=true` answers it: by type, and as the displayed text when it does not read as one; empty cells are null. */
function typedColumn(c: ColumnModel): Json {
  const description = `Column type: ${c.type}. An empty cell is null.`;
  switch (c.type) {
    case "number":
    case "currency":
    case "percent":
      return { type: ["number", "string", "null"], description: `${description} A number (a percent as its fraction: "15%" is 0.15); text that is not a number stays text.` };
    case "boolean":
      return { type: ["boolean", "string", "null"], description: `${description} TRUE and FALSE are booleans; other text stays text.` };
    // No `format`: a cell of a date column may hold any text, and it comes back as that text; a
    // validator or a client generated with `format: date` would refuse the whole answer.
    case "date":
      return { type: ["string", "null"], description: `${description} An ISO 8601 date (YYYY-MM-DD; a cell that also holds a time, as a date-time); text that is not a date stays text.` };
    case "datetime":
      return { type: ["string", "null"], description: `${description} An ISO 8601 date-time with the sheet's UTC offset; text that is not a date stays text.` };
    default:
      return { type: ["string", "null"], description };
  }
}

function rowSchemas(tab: TabModel, docs: SheetDocs): Record<string, Json> {
  const example = docs.examples.get(tab.name)?.rows[0];
  const rowNumber = "Row number in the sheet (header = 1); moves when rows above are deleted.";
  const rowProps = Object.fromEntries([
    ...(tab.hasIdColumn ? [] : [["id", { type: "string", description: rowNumber }]]),
    ...tab.columns.map((c) => [c.name, { type: "string", description: `Column type: ${c.type}. The value as the sheet shows it; an empty cell is "".` }]),
  ]);
  const typedProps = Object.fromEntries([
    ...(tab.hasIdColumn ? [] : [["id", { type: "integer", description: rowNumber }]]),
    ...tab.columns.map((c) => [c.name, typedColumn(c)]),
  ]);
  const value = valueSchema(docs);
  const inputProps = Object.fromEntries(tab.columns.map((c) => [c.name, value]));
  // Array PATCH finds each row by `?key=`, `id` by default: on a tab without an id column, the row number.
  const keyedProps = tab.hasIdColumn ? inputProps : { id: { type: ["string", "integer"], description: `${rowNumber} With the default \`?key=id\`, which row to update.` }, ...inputProps };
  // `id` cannot change through an update.
  const patchProps = Object.fromEntries(Object.entries(inputProps).filter(([name]) => name !== "id"));
  // `select` answers a subset of the columns: only `id` always comes. Open to more: a column
  // added to the sheet later comes in the answers before a client made from this document knows it.
  const subset = "`select` returns only the columns asked for, and `id` always. A column added to the sheet later comes as one more property.";
  return {
    Row: { type: "object", description: `A row, values as the sheet shows them. ${subset}`, properties: rowProps, required: ["id"], ...(example ? { examples: [example] } : {}) },
    TypedRow: { type: "object", description: `A row with \`?typed=true\`: numbers, booleans and nulls by column type. ${subset}`, properties: typedProps, required: ["id"] },
    // A tab without columns has no valid body to show: no example rather than an invalid `{}`.
    RowInput: { type: "object", properties: inputProps, additionalProperties: false, minProperties: 1, ...examplesOf(exampleCreateBody(docs, tab)) },
    RowPatch: { type: "object", properties: patchProps, additionalProperties: false, minProperties: 1, ...examplesOf(exampleUpdateBody(docs, tab)) },
    // One item of an array PATCH: the row's new cells and the `?key=` column that finds it.
    RowByKey: { type: "object", properties: keyedProps, additionalProperties: false, minProperties: 1 },
    // PUT and PATCH of one row: a row read and sent back whole carries its own id, which is no change.
    RowUpdate: {
      type: "object",
      properties: { ...patchProps, id: { type: ["string", "number"], description: "Optional: the row's own id, as read (a row sent back whole is no change to it). Any other value answers 400: id cannot change. The body must name at least one other column." } },
      additionalProperties: false,
      minProperties: 1,
      // `{ "id": ... }` alone changes nothing and answers 400.
      not: { type: "object", properties: { id: true }, required: ["id"], maxProperties: 1 },
      ...examplesOf(exampleUpdateBody(docs, tab)),
    },
  };
}

const examplesOf = (body: Record<string, unknown>) => (Object.keys(body).length ? { examples: [body] } : {});
const jsonBody = (schema: Json) => ({ content: { "application/json": { schema } } });
const okResponse = (description: string, schema: Json, headers: Json = headerRefs) => ({ description, headers, ...jsonBody(schema) });
const envelope = (data: Json) => ({ type: "object", required: ["success", "data"], properties: { success: { const: true }, data } });
const notModified = { "304": ref("responses", "NotModified") };

/** `tag`: the tab's tag; `csvPath`: false when another tab's own path is this tab's `.csv` one (that tab is served there). */
function tabPaths(tab: TabModel, id: string, docs: SheetDocs, { tag: tagName, csvPath }: { tag: string; csvPath: boolean }): Record<string, Json> {
  const row = ref("schemas", `${id}_Row`);
  // Reads answer display strings, or typed values with `?typed=true`.
  const readRow = { anyOf: [row, ref("schemas", `${id}_TypedRow`)] };
  const rowId = { name: "rowId", in: "path", required: true, schema: { type: "string" }, example: exampleId(docs, tab), description: tab.hasIdColumn ? "The row's `id` value." : "The row number in the sheet." };
  const tag = [tagName];
  // A parameter a route refuses to go without carries a value this tab accepts: tools that send
  // only the required parameters (Portman, Prism) send the example. Parameters are per tab for it.
  const writeFilter = exampleWriteFilter(docs, tab);
  const deleteFilter = exampleWriteFilter(docs, tab, { after: true });
  const writeResult = { type: "object", required: ["created", "rows"], properties: { created: { type: "integer" }, updated: { type: "integer", description: "Upserts: rows updated." }, rows: { type: "array", items: row } } };
  const update = (method: string) => ({
    operationId: `${method}_${id}`, tags: tag, summary: `Update a row of ${tab.name}${method === "patch" ? " (same as PUT)" : ""}`, description: "Permission: Write. Only the cells named in the body change; `id` cannot change (the row's own id, sent back with the row as read, is no change). No query parameters. With If-Match, only if the row is still as read (else 412, nothing changed).",
    parameters: [ref("parameters", "If-Match")],
    requestBody: { required: true, ...jsonBody(ref("schemas", `${id}_RowUpdate`)) },
    responses: { "200": okResponse("The whole row after the update, with its new ETag.", envelope(row), withHeaders("ETag")), ...errorResponses(["Unauthorized", "Forbidden", "NotFound", "ValidationError", "PreconditionFailed", "PayloadTooLarge", "UnsupportedMediaType", "BadGateway", "ServiceUnavailable", "GatewayTimeout"]) },
  });
  const csv = {
    [`${tabPath(docs, tab)}.csv`]: {
      get: {
        operationId: `csv_${id}`, tags: tag, summary: `Rows of ${tab.name} as CSV`, description: `Permission: Read. The list query (filter, sort, select, typed, offset) as RFC 4180 CSV with a header line, for tools that cannot set headers (spreadsheets' IMPORTDATA, BI tools); \`limit\` defaults to every matching row, up to ${MAX_CSV_ROWS.toLocaleString("en-US")}. A cell that would run as a formula when the file is opened (starting with = + - @) is prefixed with ', unless it is a number.${BROWSER_NOTE}`, security: READ_SECURITY,
        parameters: [ref("parameters", "csv_limit"), ...LIST_PARAMETERS.filter((p) => p !== "limit").map((p) => ref("parameters", p)), ref("parameters", "If-None-Match")],
        responses: {
          "200": { description: "The matching rows as CSV.", headers: withHeaders("ETag", "X-Cache", "Last-Modified", "Age", "X-Total-Count"), content: { "text/csv": { schema: { type: "string" } } } },
          ...notModified,
          ...errorResponses(["Unauthorized", "Forbidden", "NotFound", "ValidationError", "BadGateway", "ServiceUnavailable", "GatewayTimeout"]),
        },
      },
    },
  };
  // `Accept: text/csv` on the list answers the same CSV whether or not the `.csv` path exists.
  const csvAlso = csvPath ? `, as \`GET ${tabPath(docs, tab)}.csv\` does` : ` (the path \`${tabPath(docs, tab)}.csv\` is the tab of that name)`;
  return {
    ...(csvPath ? csv : {}),
    [`${tabPath(docs, tab)}/_aggregate`]: {
      get: {
        operationId: `aggregate_${id}`, tags: tag, summary: `Count and totals of ${tab.name}'s rows, grouped`, description: `Permission: Read. From the cached copy, like a list (no Google call while it is current). Rows kept by \`filter\` and \`or\`, grouped by the \`group_by\` columns' values (groups in value order), with \`count\` and any of \`sum\` \`avg\` \`min\` \`max\` over number, currency and percent columns read by value in the sheet's locale${aggregateExample(tab)}. Empty cells and text that is not a number are left out of sum/avg/min/max; a group without any gives null.${BROWSER_NOTE}`, security: READ_SECURITY,
        parameters: ["group_by", "aggregate", "filter", "or", "group_limit", "offset", "typed", "fresh"].map((p) => ref("parameters", p)).concat([ref("parameters", "If-None-Match")]),
        responses: { "200": okResponse("The groups.", { type: "object", required: ["success", "data", "meta"], properties: { success: { const: true }, data: { type: "array", items: ref("schemas", "AggregateGroup") }, meta: ref("schemas", "AggregateMeta") } }, withHeaders("ETag", "X-Cache", "Last-Modified", "Age")), ...notModified, ...errorResponses(["Unauthorized", "Forbidden", "NotFound", "ValidationError", "BadGateway", "ServiceUnavailable", "GatewayTimeout"]) },
      },
    },
    [`${tabPath(docs, tab)}/_distinct`]: {
      get: {
        operationId: `distinct_${id}`, tags: tag, summary: `Distinct values of a column of ${tab.name}`, description: "Permission: Read. The column's values among the rows `filter` and `or` keep, each once, in value order (empty last): what a dropdown offers. From the cached copy." + BROWSER_NOTE, security: READ_SECURITY,
        parameters: [{ ...TAB_PARAMETERS.column, example: exampleColumn(tab) }, ...["filter", "or", "group_limit", "offset", "typed", "fresh", "If-None-Match"].map((p) => ref("parameters", p))],
        responses: { "200": okResponse("The values.", { type: "object", required: ["success", "data", "meta"], properties: { success: { const: true }, data: { type: "array", items: { type: ["string", "number", "boolean", "null"] } }, meta: ref("schemas", "Meta") } }, withHeaders("ETag", "X-Cache", "Last-Modified", "Age")), ...notModified, ...errorResponses(["Unauthorized", "Forbidden", "NotFound", "ValidationError", "BadGateway", "ServiceUnavailable", "GatewayTimeout"]) },
      },
    },
    [tabPath(docs, tab)]: {
      get: {
        operationId: `list_${id}`, tags: tag, summary: `List rows of ${tab.name}`, description: `Permission: Read. With If-None-Match holding the ETag of the same answer: 304, no body. \`Accept: text/csv\` answers the same query as CSV${csvAlso}.${BROWSER_NOTE}`, security: READ_SECURITY,
        parameters: [...LIST_PARAMETERS.map((p) => ref("parameters", p)), ref("parameters", "If-None-Match")],
        // The CSV answer of `Accept: text/csv` is documented on the `.csv` path alone: a second
        // content type here would make every typed client's list data a union with a string.
        responses: {
          "200": okResponse("The matching rows, paged.", { type: "object", required: ["success", "data", "meta"], properties: { success: { const: true }, data: { type: "array", items: readRow }, meta: ref("schemas", "Meta") } }, withHeaders("ETag", "X-Cache", "Last-Modified", "Age")),
          ...notModified, ...errorResponses(["Unauthorized", "Forbidden", "NotFound", "ValidationError", "BadGateway", "ServiceUnavailable", "GatewayTimeout"]),
        },
      },
      post: {
        operationId: `create_${id}`, tags: tag, summary: `Create rows in ${tab.name}, or upsert them by a key column`, description: "Permission: Write; with `?upsert=`, Read too (each row is looked up by its key and the matched rows are answered). One row, or an array of up to 1,000, appended in one write; rows without an `id` get the next integer. With `?upsert=column`, a row whose key matches a row of the tab updates that row's named cells and the others are appended, all in one write (201 when any row was created, else 200); If-Match then lists the ETags of the rows it updates. With an Idempotency-Key, a retry gets the first answer again and writes nothing.",
        parameters: [ref("parameters", "upsert"), ref("parameters", "If-Match-Rows"), ref("parameters", "Idempotency-Key")],
        requestBody: { required: true, ...jsonBody({ oneOf: [ref("schemas", `${id}_RowInput`), { type: "array", items: ref("schemas", `${id}_RowInput`), minItems: 1, maxItems: 1000 }] }) },
        responses: {
          "201": okResponse("The rows as written, each with its id (in body order).", envelope(writeResult), withHeaders("Idempotent-Replayed")),
          "200": okResponse("An upsert that created nothing: every row was an update.", envelope(writeResult), withHeaders("Idempotent-Replayed")),
          ...errorResponses(["Unauthorized", "Forbidden", "NotFound", "ValidationError", "Conflict", "PreconditionFailed", "PayloadTooLarge", "UnsupportedMediaType", "BadGateway", "ServiceUnavailable", "GatewayTimeout"]),
        },
      },
      patch: {
        operationId: `updateMany_${id}`, tags: tag, summary: `Update the rows of ${tab.name} a filter matches, or many rows by a key`, description: `Permission: Write; with \`?filter=\`, \`or\`, \`dry_run\` or a \`?key=\` other than \`id\`, Read too (the rows are chosen by their values and answered). An object with \`?filter=\` (required; \`or\` too): its cells are written to every matching row, at most \`limit\` of them (default 1; more matches answer 409 and change nothing); \`dry_run=true\` answers the matches and their ETags without writing. An array: each row is found by its \`?key=\` column (default \`id\`) and gets its own values (404 and nothing changed if one is missing). One atomic write either way; with If-Match, every changed row must still be as read (else 412).${byKeyExample(tab)}`,
        parameters: [{ ...TAB_PARAMETERS.patch_filter, example: writeFilter }, ...["or", "write_limit", "dry_run", "key", "If-Match-Rows", "Idempotency-Key"].map((p) => ref("parameters", p))],
        requestBody: { required: true, content: { "application/json": { schema: { oneOf: [ref("schemas", `${id}_RowPatch`), { type: "array", items: ref("schemas", `${id}_RowByKey`), minItems: 1, maxItems: 1000 }] }, ...patchExamples(docs, tab, writeFilter) } } },
        responses: { "200": okResponse("What matched and the rows after the update (as now, for a dry run), with their ETags.", envelope({ type: "object", required: ["matched", "updated", "dry_run", "rows", "etags"], properties: { matched: { type: "integer" }, updated: { type: "integer" }, dry_run: { type: "boolean" }, rows: { type: "array", items: row }, etags: { type: "array", items: { type: "string" } } } }), withHeaders("Idempotent-Replayed")), ...errorResponses(["Unauthorized", "Forbidden", "NotFound", "ValidationError", "Conflict", "PreconditionFailed", "PayloadTooLarge", "UnsupportedMediaType", "BadGateway", "ServiceUnavailable", "GatewayTimeout"]) },
      },
      delete: {
        operationId: `deleteMany_${id}`, tags: tag, summary: `Delete the rows of ${tab.name} a filter matches`, description: "Permission: Write and Read (the rows are chosen by their values and answered). `?filter=` is required (`or` too); at most `limit` rows (default 1; more matches answer 409 and delete nothing), in one atomic write; `dry_run=true` answers the matches without deleting. With If-Match, every row must still be as read (else 412).",
        parameters: [{ ...TAB_PARAMETERS.filter_required, example: deleteFilter }, ...["or", "write_limit", "dry_run", "If-Match-Rows", "Idempotency-Key"].map((p) => ref("parameters", p))],
        responses: { "200": okResponse("What matched and what was deleted.", { type: "object", required: ["success", "message", "data"], properties: { success: { const: true }, message: { type: "string" }, data: { type: "object", required: ["matched", "deleted", "dry_run", "ids", "etags"], properties: { matched: { type: "integer" }, deleted: { type: "integer" }, dry_run: { type: "boolean" }, ids: { type: "array", items: { type: "string" } }, etags: { type: "array", items: { type: "string" } } } } } }, withHeaders("Idempotent-Replayed")), ...errorResponses(["Unauthorized", "Forbidden", "NotFound", "ValidationError", "Conflict", "PreconditionFailed", "BadGateway", "ServiceUnavailable", "GatewayTimeout"]) },
      },
    },
    [`${tabPath(docs, tab)}/{rowId}`]: {
      parameters: [rowId],
      get: {
        operationId: `get_${id}`, tags: tag, summary: `Get one row of ${tab.name}`, description: "Permission: Read. The ETag is the row's state whatever `select` or `typed` asked; with If-None-Match holding it: 304, no body." + BROWSER_NOTE, security: READ_SECURITY,
        parameters: [ref("parameters", "select"), ref("parameters", "typed"), ref("parameters", "formulas"), ref("parameters", "fresh"), ref("parameters", "If-None-Match")],
        responses: { "200": okResponse("The row.", envelope(readRow), withHeaders("ETag", "X-Cache", "Last-Modified", "Age")), ...notModified, ...errorResponses(["Unauthorized", "Forbidden", "NotFound", "ValidationError", "BadGateway", "ServiceUnavailable", "GatewayTimeout"]) },
      },
      put: update("update"),
      patch: update("patch"),
      delete: {
        operationId: `delete_${id}`, tags: tag, summary: `Delete a row of ${tab.name}`, description: "Permission: Write. Removes exactly the row with this id (it takes no query parameters: any, `dry_run` included, answers 400 and deletes nothing). With If-Match, only if the row is still as read (else 412, nothing deleted).",
        parameters: [ref("parameters", "If-Match")],
        responses: { "200": okResponse("Deleted.", { type: "object", required: ["success", "message"], properties: { success: { const: true }, message: { type: "string" } } }), ...errorResponses(["Unauthorized", "Forbidden", "NotFound", "ValidationError", "PreconditionFailed", "BadGateway", "ServiceUnavailable", "GatewayTimeout"]) },
      },
    },
  };
}

/**
 * The PATCH bodies, the array first: it needs no query parameter (each row found by its id, the
 * default key), so a tool that sends only required parameters and the first example gets a 200;
 * the object needs `?filter=`, which such a tool leaves out.
 */
function patchExamples(docs: SheetDocs, tab: TabModel, filter: string): Json {
  const update = exampleUpdateBody(docs, tab);
  if (!Object.keys(update).length) return {};
  return {
    examples: {
      byId: { summary: "Rows by id (no query parameters); here the row's own value, so nothing changes", value: [exampleRewriteBody(docs, tab)] },
      byFilter: { summary: `With ?filter=${filter}`, value: update },
    },
  };
}

/** ` (here: ...)`: a write by key using the tab's own columns. */
function byKeyExample(tab: TabModel): string {
  const key = exampleKeyColumn(tab);
  const other = tab.columns.find((c) => c.name !== "id" && c !== key);
  if (!key || !other) return "";
  return ` Here: \`PATCH ?filter=${key.name}=…\` with \`{"${other.name}": …}\`, or \`PATCH ?key=${key.name}\` with \`[{"${key.name}": …, "${other.name}": …}]\`.`;
}

/** ` (here: ...)`: an aggregate request using the tab's own columns. */
function aggregateExample(tab: TabModel): string {
  const group = tab.columns.find((c) => c.type === "string" || c.type === "boolean");
  const num = tab.columns.find((c) => ["number", "currency", "percent"].includes(c.type));
  if (!group || !num) return "";
  return ` (here: \`?group_by=${group.name}&aggregate=count,sum:${num.name},avg:${num.name}\`)`;
}

const LIST_PARAMETERS = ["limit", "offset", "sort", "order", "filter", "or", "select", "typed", "formulas", "fresh"];

// Parameters that carry each tab's own example (tabPaths): written into its operations, not shared.
const TAB_PARAMETERS = {
  column: { name: "column", in: "query", required: true, schema: { type: "string" }, description: "The column whose distinct values to list." },
  filter_required: { name: "filter", in: "query", required: true, schema: { type: "string" }, description: "Conditions joined by `,` that choose the rows to delete, in the list's `filter` syntax. Marked required because a DELETE on the tab never means every row: the route answers 400 without a filter (it also serves a request that gives only `or`). The example matches the row the create example makes." },
  patch_filter: { name: "filter", in: "query", schema: { type: "string" }, description: "With an object body (required then; `or` too): conditions joined by `,` that choose the rows to change, in the list's `filter` syntax. Not with an array body, which finds each row by `?key=` (400). The example matches the row the create example makes." },
};

const QUERY_PARAMETERS = {
  csv_limit: { name: "limit", in: "query", schema: { type: "integer", minimum: 1, maximum: MAX_CSV_ROWS, default: MAX_CSV_ROWS }, description: "Rows to return (default: all matching, up to the maximum)." },
  upsert: { name: "upsert", in: "query", schema: { type: "string" }, description: "A key column: rows whose key matches a row of the tab update it (named cells only), the others are created. Every row must carry the key; `id` works on tabs with an id column." },
  write_limit: { name: "limit", in: "query", schema: { type: "integer", minimum: 1, maximum: 1000, default: 1 }, description: "The most rows this request may change; more matches answer 409 and change nothing." },
  dry_run: { name: "dry_run", in: "query", schema: { type: "boolean", default: false }, description: "`true`: answer what would match (ids, ETags), write nothing." },
  key: { name: "key", in: "query", schema: { type: "string", default: "id" }, description: "Array bodies: the column that finds each row (its value as the sheet shows it, or by value in number and date columns; ids exactly)." },
  "If-Match-Rows": { name: "If-Match", in: "header", schema: { type: "string" }, description: "ETags of the rows as you read them (comma-separated, e.g. a dry run's `etags`): 412 and nothing changed when any row the request changes is not among them." },
  group_by: { name: "group_by", in: "query", schema: { type: "string" }, description: "Columns to group by, comma-separated; none: one group of all matching rows." },
  aggregate: { name: "aggregate", in: "query", schema: { type: "string", default: "count" }, description: "`count` (always given) and `sum:column`, `avg:column`, `min:column`, `max:column` over number, currency or percent columns, comma-separated." },
  group_limit: { name: "limit", in: "query", schema: { type: "integer", minimum: 1, maximum: MAX_GROUPS, default: 1000 }, description: "Groups (or values) to return." },
  fresh: { name: "fresh", in: "query", schema: { type: "boolean", default: false }, description: "`true` reads the sheet from Google now instead of the cached copy, as `Cache-Control: no-cache` does (for tools that cannot set headers). Parameters starting with `_` (cache-busters such as `_=1700000000000`) are ignored." },
  limit: { name: "limit", in: "query", schema: { type: "integer", minimum: 1, maximum: MAX_LIMIT, default: 100 }, description: "Rows to return." },
  offset: { name: "offset", in: "query", schema: { type: "integer", minimum: 0, default: 0 }, description: "Rows to skip." },
  sort: { name: "sort", in: "query", schema: { type: "string" }, description: "Column to sort by, or several joined by `,` (later ones break ties): by value when all its values are numbers or dates, in the sheet's locale; stable; empty values last." },
  order: { name: "order", in: "query", schema: { anyOf: [{ type: "string", enum: ["asc", "desc"] }, { type: "string", pattern: "^(asc|desc)(,(asc|desc))+$" }], default: "asc" }, description: "`asc` or `desc` for every sort column, or one per sort column (`asc,desc`). Without `sort`, `desc` gives the sheet's rows last first." },
  filter: { name: "filter", in: "query", schema: { type: "string" }, description: "Conditions joined by `,`, all of which must hold: `column` + operator + value. `=` equals (`a=x|y`: any of them; `a=` is empty), `!=` differs (`a!=x|y`: none of them; `a!=` is not empty), `>` `>=` `<` `<=` (by value for numbers and for dates in date columns), `~` contains (case-insensitive), `~=` equals ignoring case, with `*` for any text (`name~=desk*` starts with, `*lamp` ends with, `*oak*` contains; `x|y` any). Numbers and dates in `=` and `!=` compare by value (`price=24.5` matches `$24.50`); ids always exactly (`id=05` is not row 5). Escape `,` `|` `\\` (and `*` in `~=`) with `\\`." },
  or: { name: "or", in: "query", schema: { type: "array", items: { type: "string" } }, style: "form", explode: true, description: "Conditions joined by `,` of which at least one must hold (OR across columns), in the `filter` syntax; ANDed with `filter` and with any other `or` parameter." },
  select: { name: "select", in: "query", schema: { type: "string" }, description: "Columns to return, comma-separated (and `id`)." },
  formulas: { name: "formulas", in: "query", schema: { type: "boolean", default: false }, description: "Cells holding a formula answer with the formula (`=B2*C2`) instead of its result; other cells as usual (typed with `typed=true`). Only for keys the sheet's owner allowed to read formulas (dashboard, API keys, \"Can read formulas\"): other keys get 403 `forbidden`. The first such read of a cached copy costs one Google call; later ones none." },
  typed: { name: "typed", in: "query", schema: { type: "boolean", default: false }, description: "Numbers, booleans and nulls by column type instead of display strings, read in the sheet's locale; dates as ISO 8601 (date columns `2024-01-15`, datetime columns with the sheet's time-zone offset), built from the cell's underlying value, so a display without the year (`Jan 15`) still gives the full date. Rows then have the tab's `TypedRow` shape, else its `Row` shape (display strings): a read declares either (`anyOf`), as OpenAPI cannot tie a schema to a query value." },
  "If-None-Match": { name: "If-None-Match", in: "header", schema: { type: "string" }, description: "An ETag from an earlier read: 304 with no body when the answer would be the same." },
  "If-Match": { name: "If-Match", in: "header", schema: { type: "string" }, description: "The row's ETag from your read: 412 and nothing changed when the row changed since." },
  "Idempotency-Key": { name: "Idempotency-Key", in: "header", schema: { type: "string", minLength: 1, maxLength: 255, pattern: "^[\\x21-\\x7E]+$" }, description: "1-255 visible ASCII characters (a UUID): a retry with the same key and body gets the first answer (`Idempotent-Replayed: true`) for 24 hours; another body with it is 409." },
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
    AggregateGroup: {
      type: "object",
      required: ["group", "count"],
      properties: {
        group: { type: "object", description: "The group_by columns' values (as the sheet shows them; typed with `?typed=true`).", additionalProperties: { type: ["string", "number", "boolean", "null"] } },
        count: { type: "integer", description: "Matching rows in the group." },
        ...Object.fromEntries(["sum", "avg", "min", "max"].map((fn) => [fn, { type: "object", description: `${fn} of each column asked for; null when the group has no number in it.`, additionalProperties: { type: ["number", "null"] } }])),
      },
    },
    AggregateMeta: { type: "object", required: ["groups", "rows", "limit", "offset", "returned"], properties: { groups: { type: "integer", description: "Groups in all." }, rows: { type: "integer", description: "Rows the filter kept." }, limit: { type: "integer" }, offset: { type: "integer" }, returned: { type: "integer" } } },
    Meta: { type: "object", required: ["total", "limit", "offset", "returned"], properties: { total: { type: "integer" }, limit: { type: "integer" }, offset: { type: "integer" }, returned: { type: "integer" } } },
    EventData: {
      type: "object",
      required: ["sheet_id", "tab", "row_id", "source"],
      properties: {
        sheet_id: { type: "string" },
        tab: { type: "string" },
        row_id: { type: ["string", "null"] },
        source: { type: "string", enum: ["api", "sheet"], description: "`api`: a write through this service; `sheet`: an edit made in Google Sheets." },
        row: { type: "object", additionalProperties: { type: "string" }, description: "The row after the change (before it, for row.deleted)." },
        previous: { type: "object", additionalProperties: { type: "string" } },
        changes: { type: "object", additionalProperties: { type: "object", required: ["before", "after"], properties: { before: { type: "string" }, after: { type: "string" } } } },
        columns: { type: "array", items: { type: "string" } },
        previous_columns: { type: "array", items: { type: "string" } },
      },
    },
  };
  for (const tab of docs.model.tabs) for (const [name, schema] of Object.entries(rowSchemas(tab, docs))) schemas[`${ids.get(tab.name)}_${name}`] = schema;
  const responses: Json = {
    RateLimited: {
      description: `${documentedError("RateLimited").when} Plan limits (${docs.plan.label}: ${docs.plan.burst}/min, ${docs.plan.hour}/hour, ${docs.plan.day}/day, ${docs.plan.month}/billing period).`,
      headers: { ...headerRefs, "Retry-After": ref("headers", "Retry-After") },
      ...jsonBody(ref("schemas", "RateLimitError")),
    },
  };
  for (const e of DOCUMENTED_ERRORS) {
    if (e.name === "RateLimited") continue;
    const retry = e.status === 503 ? { "Retry-After": ref("headers", "Retry-After") } : {};
    const challenge = e.status === 401 ? { "WWW-Authenticate": ref("headers", "WWW-Authenticate") } : {};
    responses[e.name] = { description: e.when, headers: { ...headerRefs, ...retry, ...challenge, ...(e.status === 412 ? { ETag: ref("headers", "ETag") } : {}) }, ...jsonBody(ref("schemas", "Error")) };
  }
  responses.NotModified = { description: "Not modified: the ETag in If-None-Match is current. No body; counted as a request.", headers: withHeaders("ETag", "X-Cache", "Last-Modified", "Age", "X-Total-Count") };
  return { securitySchemes: SECURITY_SCHEMES, headers: { ...LIMIT_HEADERS, ...OTHER_HEADERS }, parameters: QUERY_PARAMETERS, schemas, responses };
}

/** What this service POSTs to a sheet's webhook endpoints (OpenAPI 3.1 `webhooks`). */
function sheetWebhooks(): Json {
  const header = (name: string, description: string, example: string) => ({ name, in: "header", required: true, schema: { type: "string" }, description, example });
  return {
    sheetChange: {
      post: {
        operationId: "receiveSheetChange", tags: ["Events"], summary: "A change of the sheet, POSTed to each of its webhook endpoints",
        description: "Standard Webhooks: verify `webhook-signature` with the endpoint's `whsec_` secret (any Standard Webhooks library), deduplicate by `webhook-id`. A 2xx within 10 s is success; otherwise the delivery is retried with exponential backoff for a day, and a row's events arrive in order. For 24 hours after a secret rotation the header carries a signature by each replaced secret too. `webhook.test` is sent only by the dashboard's Send test event: no row changed.",
        parameters: [
          header("webhook-id", "The event id: the same on every attempt and resend.", "msg_2KWPBgLlAfxdpx2AI54pPJ85f4W"),
          header("webhook-timestamp", "Unix seconds of this attempt.", "1700000000"),
          header("webhook-signature", "`v1,<base64 HMAC-SHA256>`, several space-separated during a rotation's grace day.", "v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4="),
        ],
        requestBody: {
          required: true,
          content: {
            "application/json": {
              schema: {
                type: "object",
                required: ["type", "timestamp", "data"],
                properties: {
                  type: { type: "string", enum: ["row.created", "row.updated", "row.deleted", "schema.changed", "webhook.test"] },
                  timestamp: { type: "string", format: "date-time" },
                  data: { oneOf: [ref("schemas", "EventData"), { type: "object", required: ["sheet_id", "endpoint_id", "message"], properties: { sheet_id: { type: "string" }, endpoint_id: { type: "string" }, message: { type: "string" } }, description: "A `webhook.test` event's data." }] },
                },
              },
            },
          },
        },
        responses: { "2XX": { description: "Received: the delivery is done." } },
      },
    },
  };
}

function sheetPaths(docs: SheetDocs): Json {
  const schemaDoc = envelope({
    type: "object",
    required: ["sheet_id", "sheet_name", "tabs"],
    properties: {
      sheet_id: { type: "string" },
      sheet_name: { type: "string" },
      tabs: { type: "array", items: { type: "object", required: ["name", "columns"], properties: { name: { type: "string" }, columns: { type: "array", items: { type: "object", required: ["name", "type"], properties: { name: { type: "string" }, type: { type: "string", enum: [...COLUMN_TYPES] } } } } } } },
    },
  });
  const window = { type: "object", required: ["name", "limit", "used", "remaining", "reset_at"], properties: { name: { type: "string", enum: ["burst", "hour", "day", "month"] }, limit: { type: "integer" }, used: { type: "integer" }, remaining: { type: "integer" }, reset_at: { type: "integer", description: "Unix seconds." } } };
  return {
    [`/api/${docs.sheet.id}/schema`]: {
      get: { operationId: "getSchema", tags: ["Schema"], summary: "Tabs and columns with their types", description: "Permission: Schema.", responses: { "200": okResponse("The schema.", schemaDoc, { ...headerRefs, "Last-Modified": ref("headers", "Last-Modified"), Age: ref("headers", "Age") }), ...errorResponses(["Unauthorized", "Forbidden", "NotFound", "BadGateway", "ServiceUnavailable", "GatewayTimeout"]) } },
    },
    [`/api/${docs.sheet.id}/refresh-schema`]: {
      post: {
        operationId: "refreshSchema", tags: ["Schema"], summary: "Read the structure from Google again", description: "Permission: Schema. Drops the cached schema and rows.",
        responses: { "200": okResponse("Refreshed.", { type: "object", required: ["success", "message", "data"], properties: { success: { const: true }, message: { type: "string" }, data: { type: "object", required: ["tabs_count", "updated_at"], properties: { tabs_count: { type: "integer" }, updated_at: { type: "integer", description: "Unix ms." } } } } }), ...errorResponses(["Unauthorized", "Forbidden", "NotFound", "BadGateway", "ServiceUnavailable", "GatewayTimeout"]) },
      },
    },
    [`/api/${docs.sheet.id}/events`]: {
      get: {
        operationId: "listEvents", tags: ["Events"], summary: "Change events after a cursor (for clients that poll instead of receiving webhooks)",
        description: "Permission: Read (events carry row values). The first call starts recording changes for the sheet. Writes through the API show at once; edits made in Google Sheets show when the service reads the tab again (within the sheet's cache TTL, 10 s by default, on the next read). Page with `after` = the last `seq` you saw (`meta.next_after`).",
        parameters: [
          { name: "after", in: "query", schema: { type: "integer", minimum: 0, default: 0 }, description: "Events with a greater `seq` than this." },
          { name: "limit", in: "query", schema: { type: "integer", minimum: 1, maximum: 1000, default: 100 } },
          { name: "tab", in: "query", schema: { type: "string" }, description: "Only this tab's events." },
          { name: "type", in: "query", schema: { type: "string", enum: ["row.created", "row.updated", "row.deleted", "schema.changed"] } },
        ],
        responses: {
          "200": okResponse("Events, oldest first.", {
            type: "object",
            required: ["success", "data", "meta"],
            properties: {
              success: { const: true },
              data: {
                type: "array",
                items: {
                  type: "object",
                  required: ["id", "seq", "type", "timestamp", "data"],
                  properties: {
                    id: { type: "string", description: "The event id: the `webhook-id` of its deliveries." },
                    seq: { type: "integer" },
                    type: { type: "string", enum: ["row.created", "row.updated", "row.deleted", "schema.changed"] },
                    timestamp: { type: "string", format: "date-time" },
                    data: ref("schemas", "EventData"),
                  },
                },
              },
              meta: { type: "object", required: ["after", "limit", "returned", "has_more", "next_after"], properties: { after: { type: "integer" }, limit: { type: "integer" }, returned: { type: "integer" }, has_more: { type: "boolean" }, next_after: { type: "integer" }, tracking_since_now: { type: "boolean" } } },
            },
          }),
          ...errorResponses(["Unauthorized", "Forbidden", "ValidationError", "ServiceUnavailable"]),
        },
      },
    },
    "/billing/usage": {
      get: {
        operationId: "getUsage", tags: ["Usage"], summary: "The account's use of its plan this billing period", description: "Permission: Analytics. Not counted toward limits, and answered past them (429 only to an address sending many invalid keys).",
        responses: {
          "200": okResponse("Usage.", envelope({
            type: "object",
            required: ["current_period", "daily_average", "projected_usage"],
            properties: {
              current_period: { type: "object", required: ["start", "end", "requests_used", "requests_limit", "percentage_used"], properties: { start: { type: "string", format: "date-time" }, end: { type: "string", format: "date-time" }, requests_used: { type: "integer" }, requests_limit: { type: "integer" }, percentage_used: { type: "number" } } },
              daily_average: { type: "number" },
              projected_usage: { type: "number" },
              plan: { type: "object", required: ["id", "name"], properties: { id: { type: "string" }, name: { type: "string" } } },
              windows: { type: ["array", "null"], description: "Each window's use now (burst, hour, day, month); null when the limit store is unreachable.", items: window },
            },
          })),
          ...errorResponses(["Unauthorized", "Forbidden", "ServiceUnavailable"]),
        },
      },
    },
  };
}

export function openApiDocument(docs: SheetDocs): Json {
  const ids = tabIdentifiers(docs.model.tabs);
  const tags = tabTags(docs.model.tabs);
  const ownPaths = new Set(docs.model.tabs.map((t) => tabPath(docs, t)));
  const paths: Json = {};
  for (const tab of docs.model.tabs) Object.assign(paths, tabPaths(tab, ids.get(tab.name)!, docs, { tag: tags.get(tab.name)!, csvPath: !ownPaths.has(`${tabPath(docs, tab)}.csv`) }));
  Object.assign(paths, sheetPaths(docs));
  return {
    openapi: "3.1.0",
    info: {
      title: `${docs.model.title} API`,
      version: pkg.version,
      contact: { name: "This API's documentation", url: `${docs.baseUrl}/docs/${docs.sheet.id}` },
      description: `REST API of the spreadsheet "${docs.model.title}": each tab is a collection, each row an item. Every answer carries \`success\`; errors are \`{ success: false, error, message }\`. Secret keys (\`shk_\`) hold the permissions each operation names; browser (publishable) keys (\`shp_\`, the \`BrowserKey\` scheme) call only the row reads, from their listed origins. Docs: ${docs.baseUrl}/docs/${docs.sheet.id}`,
    },
    servers: [{ url: docs.baseUrl }],
    security: [{ ApiKey: [] }, { Bearer: [] }],
    tags: [
      ...docs.model.tabs.map((t) => ({ name: tags.get(t.name)!, description: `Rows of the tab "${t.name}".` })),
      { name: "Schema", description: "The sheet's tabs and columns, and refreshing them from Google." },
      { name: "Events", description: "Row and schema changes, as webhooks deliver them." },
      { name: "Usage", description: "The account's use of its plan." },
    ],
    paths,
    webhooks: sheetWebhooks(),
    components: components(docs, ids),
  };
}
