// The document's components: the key schemes, the headers, the shared parameters, the shared
// and per-tab schemas and a response per documented error.
import { ERROR_STATUS } from "@/lib/errors";
import { DOCUMENTED_ERRORS, documentedError } from "../errors";
import type { SheetDocs } from "../sheet-docs";
import { LIMIT_HEADERS, OTHER_HEADERS, SECURITY_SCHEMES } from "./headers";
import { QUERY_PARAMETERS } from "./parameters";
import { headerRefs, jsonBody, ref, withHeaders, type Json } from "./refs";
import { rowSchemas } from "./row-schemas";

export function components(docs: SheetDocs, ids: Map<string, string>): Json {
  const schemas: Json = {
    Error: {
      type: "object",
      required: ["success", "error", "message"],
      properties: {
        success: { const: false },
        error: { type: "string", enum: Object.keys(ERROR_STATUS) },
        message: { type: "string" },
      },
    },
    RateLimitError: {
      allOf: [ref("schemas", "Error")],
      type: "object",
      required: ["retry_after", "limit"],
      properties: {
        retry_after: { type: "integer", description: "Seconds to wait." },
        limit: {
          type: "object",
          required: ["allowed", "current", "reset_at"],
          properties: {
            allowed: { type: "integer" },
            current: { type: "integer" },
            reset_at: { type: "integer", description: "Unix seconds." },
          },
        },
      },
    },
    AggregateGroup: {
      type: "object",
      required: ["group", "count"],
      properties: {
        group: {
          type: "object",
          description: "The group_by columns' values (as the sheet shows them; typed with `?typed=true`).",
          additionalProperties: { type: ["string", "number", "boolean", "null"] },
        },
        count: { type: "integer", description: "Matching rows in the group." },
        ...Object.fromEntries(
          ["sum", "avg", "min", "max"].map((fn) => [
            fn,
            {
              type: "object",
              description: `${fn} of each column asked for; null when the group has no number in it.`,
              additionalProperties: { type: ["number", "null"] },
            },
          ]),
        ),
      },
    },
    AggregateMeta: {
      type: "object",
      required: ["groups", "rows", "limit", "offset", "returned"],
      properties: {
        groups: { type: "integer", description: "Groups in all." },
        rows: { type: "integer", description: "Rows the filter kept." },
        limit: { type: "integer" },
        offset: { type: "integer" },
        returned: { type: "integer" },
      },
    },
    Meta: {
      type: "object",
      required: ["total", "limit", "offset", "returned"],
      properties: {
        total: { type: "integer" },
        limit: { type: "integer" },
        offset: { type: "integer" },
        returned: { type: "integer" },
      },
    },
    EventData: {
      type: "object",
      required: ["sheet_id", "tab", "row_id", "source"],
      properties: {
        sheet_id: { type: "string" },
        tab: { type: "string" },
        row_id: { type: ["string", "null"] },
        source: {
          type: "string",
          enum: ["api", "sheet"],
          description: "`api`: a write through this service; `sheet`: an edit made in Google Sheets.",
        },
        row: {
          type: "object",
          additionalProperties: { type: "string" },
          description: "The row after the change (before it, for row.deleted).",
        },
        previous: { type: "object", additionalProperties: { type: "string" } },
        changes: {
          type: "object",
          additionalProperties: {
            type: "object",
            required: ["before", "after"],
            properties: { before: { type: "string" }, after: { type: "string" } },
          },
        },
        columns: { type: "array", items: { type: "string" } },
        previous_columns: { type: "array", items: { type: "string" } },
      },
    },
  };
  for (const tab of docs.model.tabs)
    for (const [name, schema] of Object.entries(rowSchemas(tab, docs)))
      schemas[`${ids.get(tab.name)}_${name}`] = schema;
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
    responses[e.name] = {
      description: e.when,
      headers: { ...headerRefs, ...retry, ...challenge, ...(e.status === 412 ? { ETag: ref("headers", "ETag") } : {}) },
      ...jsonBody(ref("schemas", "Error")),
    };
  }
  responses.NotModified = {
    description: "Not modified: the ETag in If-None-Match is current. No body; counted as a request.",
    headers: withHeaders("ETag", "X-Cache", "Last-Modified", "Age", "X-Total-Count"),
  };
  return {
    securitySchemes: SECURITY_SCHEMES,
    headers: { ...LIMIT_HEADERS, ...OTHER_HEADERS },
    parameters: QUERY_PARAMETERS,
    schemas,
    responses,
  };
}
