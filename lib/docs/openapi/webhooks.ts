// The change events a sheet's webhook endpoints receive: headers, signature and body.
import { ref, type Json } from "./refs";

/** What this service POSTs to a sheet's webhook endpoints (OpenAPI 3.1 `webhooks`). */
export function sheetWebhooks(): Json {
  const header = (name: string, description: string, example: string) => ({
    name,
    in: "header",
    required: true,
    schema: { type: "string" },
    description,
    example,
  });
  return {
    sheetChange: {
      post: {
        operationId: "receiveSheetChange",
        tags: ["Events"],
        summary: "A change of the sheet, POSTed to each of its webhook endpoints",
        description:
          "Standard Webhooks: verify `webhook-signature` with the endpoint's `whsec_` secret (any Standard Webhooks library), deduplicate by `webhook-id`. A 2xx within 10 s is success; otherwise the delivery is retried with exponential backoff for a day, and a row's events arrive in order. For 24 hours after a secret rotation the header carries a signature by each replaced secret too. `webhook.test` is sent only by the dashboard's Send test event: no row changed.",
        parameters: [
          header(
            "webhook-id",
            "The event id: the same on every attempt and resend.",
            "msg_2KWPBgLlAfxdpx2AI54pPJ85f4W",
          ),
          header("webhook-timestamp", "Unix seconds of this attempt.", "1700000000"),
          header(
            "webhook-signature",
            "`v1,<base64 HMAC-SHA256>`, several space-separated during a rotation's grace day.",
            "v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=",
          ),
        ],
        requestBody: {
          required: true,
          content: {
            "application/json": {
              schema: {
                type: "object",
                required: ["type", "timestamp", "data"],
                properties: {
                  type: {
                    type: "string",
                    enum: ["row.created", "row.updated", "row.deleted", "schema.changed", "webhook.test"],
                  },
                  timestamp: { type: "string", format: "date-time" },
                  data: {
                    oneOf: [
                      ref("schemas", "EventData"),
                      {
                        type: "object",
                        required: ["sheet_id", "endpoint_id", "message"],
                        properties: {
                          sheet_id: { type: "string" },
                          endpoint_id: { type: "string" },
                          message: { type: "string" },
                        },
                        description: "A `webhook.test` event's data.",
                      },
                    ],
                  },
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
