// The sheet-level paths: the schema and its refresh, the change events, and the account's
// usage.
import { COLUMN_TYPES } from "@/lib/sheets/values/tab-model";
import type { SheetDocs } from "../sheet-docs";
import { envelope, errorResponses, headerRefs, okResponse, ref, type Json } from "./refs";

export function sheetPaths(docs: SheetDocs): Json {
  const schemaDoc = envelope({
    type: "object",
    required: ["sheet_id", "sheet_name", "tabs"],
    properties: {
      sheet_id: { type: "string" },
      sheet_name: { type: "string" },
      tabs: {
        type: "array",
        items: {
          type: "object",
          required: ["name", "columns"],
          properties: {
            name: { type: "string" },
            columns: {
              type: "array",
              items: {
                type: "object",
                required: ["name", "type"],
                properties: { name: { type: "string" }, type: { type: "string", enum: [...COLUMN_TYPES] } },
              },
            },
          },
        },
      },
    },
  });
  const window = {
    type: "object",
    required: ["name", "limit", "used", "remaining", "reset_at"],
    properties: {
      name: { type: "string", enum: ["burst", "hour", "day", "month"] },
      limit: { type: "integer" },
      used: { type: "integer" },
      remaining: { type: "integer" },
      reset_at: { type: "integer", description: "Unix seconds." },
    },
  };
  return {
    [`/api/${docs.sheet.id}/schema`]: {
      get: {
        operationId: "getSchema",
        tags: ["Schema"],
        summary: "Tabs and columns with their types",
        description: "Permission: Schema.",
        responses: {
          "200": okResponse("The schema.", schemaDoc, {
            ...headerRefs,
            "Last-Modified": ref("headers", "Last-Modified"),
            Age: ref("headers", "Age"),
          }),
          ...errorResponses([
            "Unauthorized",
            "Forbidden",
            "NotFound",
            "BadGateway",
            "ServiceUnavailable",
            "GatewayTimeout",
          ]),
        },
      },
    },
    [`/api/${docs.sheet.id}/refresh-schema`]: {
      post: {
        operationId: "refreshSchema",
        tags: ["Schema"],
        summary: "Read the structure from Google again",
        description: "Permission: Schema. Drops the cached schema and rows.",
        responses: {
          "200": okResponse("Refreshed.", {
            type: "object",
            required: ["success", "message", "data"],
            properties: {
              success: { const: true },
              message: { type: "string" },
              data: {
                type: "object",
                required: ["tabs_count", "updated_at"],
                properties: {
                  tabs_count: { type: "integer" },
                  updated_at: { type: "integer", description: "Unix ms." },
                },
              },
            },
          }),
          ...errorResponses([
            "Unauthorized",
            "Forbidden",
            "NotFound",
            "BadGateway",
            "ServiceUnavailable",
            "GatewayTimeout",
          ]),
        },
      },
    },
    [`/api/${docs.sheet.id}/events`]: {
      get: {
        operationId: "listEvents",
        tags: ["Events"],
        summary: "Change events after a cursor (for clients that poll instead of receiving webhooks)",
        description:
          "Permission: Read (events carry row values). The first call starts recording changes for the sheet. Writes through the API show at once; edits made in Google Sheets show when the service reads the tab again (within the sheet's cache TTL, 10 s by default, on the next read). Page with `after` = the last `seq` you saw (`meta.next_after`).",
        parameters: [
          {
            name: "after",
            in: "query",
            schema: { type: "integer", minimum: 0, default: 0 },
            description: "Events with a greater `seq` than this.",
          },
          { name: "limit", in: "query", schema: { type: "integer", minimum: 1, maximum: 1000, default: 100 } },
          { name: "tab", in: "query", schema: { type: "string" }, description: "Only this tab's events." },
          {
            name: "type",
            in: "query",
            schema: { type: "string", enum: ["row.created", "row.updated", "row.deleted", "schema.changed"] },
          },
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
              meta: {
                type: "object",
                required: ["after", "limit", "returned", "has_more", "next_after"],
                properties: {
                  after: { type: "integer" },
                  limit: { type: "integer" },
                  returned: { type: "integer" },
                  has_more: { type: "boolean" },
                  next_after: { type: "integer" },
                  tracking_since_now: { type: "boolean" },
                },
              },
            },
          }),
          ...errorResponses(["Unauthorized", "Forbidden", "ValidationError", "ServiceUnavailable"]),
        },
      },
    },
    "/billing/usage": {
      get: {
        operationId: "getUsage",
        tags: ["Usage"],
        summary: "The account's use of its plan this billing period",
        description:
          "Permission: Analytics. Not counted toward limits, and answered past them (429 only to an address sending many invalid keys).",
        responses: {
          "200": okResponse(
            "Usage.",
            envelope({
              type: "object",
              required: ["current_period", "daily_average", "projected_usage"],
              properties: {
                current_period: {
                  type: "object",
                  required: ["start", "end", "requests_used", "requests_limit", "percentage_used"],
                  properties: {
                    start: { type: "string", format: "date-time" },
                    end: { type: "string", format: "date-time" },
                    requests_used: { type: "integer" },
                    requests_limit: { type: "integer" },
                    percentage_used: { type: "number" },
                  },
                },
                daily_average: { type: "number" },
                projected_usage: { type: "number" },
                plan: {
                  type: "object",
                  required: ["id", "name"],
                  properties: { id: { type: "string" }, name: { type: "string" } },
                },
                windows: {
                  type: ["array", "null"],
                  description:
                    "Each window's use now (burst, hour, day, month); null when the limit store is unreachable.",
                  items: window,
                },
              },
            }),
          ),
          ...errorResponses(["Unauthorized", "Forbidden", "ServiceUnavailable"]),
        },
      },
    },
  };
}
