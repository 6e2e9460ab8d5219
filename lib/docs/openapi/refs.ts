// The small pieces every operation is built of: `$ref`s into components, JSON bodies, the
// success envelope and the error responses.
import { documentedError } from "../errors";
import { LIMIT_HEADERS, type OTHER_HEADERS } from "./headers";

export type Json = Record<string, unknown>;
export const ref = (kind: string, name: string) => ({ $ref: `#/components/${kind}/${name}` });

export const headerRefs = Object.fromEntries(Object.keys(LIMIT_HEADERS).map((h) => [h, ref("headers", h)]));
export const withHeaders = (...names: (keyof typeof OTHER_HEADERS)[]) => ({
  ...headerRefs,
  ...Object.fromEntries(names.map((h) => [h, ref("headers", h)])),
});

/** Error responses of an operation; every operation can also answer 429 and 500. */
export function errorResponses(names: string[]): Json {
  const out: Json = { "429": ref("responses", "RateLimited"), "500": ref("responses", "ServerError") };
  for (const name of names) out[String(documentedError(name).status)] = ref("responses", name);
  return out;
}

export const examplesOf = (body: Record<string, unknown>) => (Object.keys(body).length ? { examples: [body] } : {});
export const jsonBody = (schema: Json) => ({ content: { "application/json": { schema } } });
export const okResponse = (description: string, schema: Json, headers: Json = headerRefs) => ({
  description,
  headers,
  ...jsonBody(schema),
});
export const envelope = (data: Json) => ({
  type: "object",
  required: ["success", "data"],
  properties: { success: { const: true }, data },
});
export const notModified = { "304": ref("responses", "NotModified") };
