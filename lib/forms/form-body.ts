// A form submission's fields, in the order sent, from the three bodies a form or a script sends:
// application/x-www-form-urlencoded and multipart/form-data (what a plain <form> posts) and JSON.
import { ApiError } from "@/lib/errors";
import { readJsonBody, readTextBody } from "@/lib/http/body";
import type { CellInput } from "@/lib/sheets/write/row-input";

/** A form is small: a few fields of text. */
export const MAX_FORM_BYTES = 64 * 1024;
export type FormFields = [name: string, value: CellInput][];

const URLENCODED = /^application\/x-www-form-urlencoded\b/i;
const MULTIPART = /^multipart\/form-data\b/i;
const JSON_TYPE = /^application\/([\w.+-]+\+)?json\b/i;

export async function readFormFields(req: Request): Promise<FormFields> {
  const type = req.headers.get("content-type") ?? "";
  if (URLENCODED.test(type)) return [...new URLSearchParams(await readTextBody(req, { maxBytes: MAX_FORM_BYTES }))];
  if (MULTIPART.test(type)) return multipart(type, await readTextBody(req, { maxBytes: MAX_FORM_BYTES }));
  if (JSON_TYPE.test(type)) return jsonFields(await readJsonBody(req, { maxBytes: MAX_FORM_BYTES }));
  throw new ApiError(
    "unsupported_media_type",
    'Send the form as application/x-www-form-urlencoded (a plain <form method="post">), multipart/form-data or JSON.',
  );
}

async function multipart(type: string, text: string): Promise<FormFields> {
  let data: FormData;
  try {
    data = await new Response(text, { headers: { "content-type": type } }).formData();
  } catch {
    throw new ApiError("validation_error", "The form body is not valid multipart/form-data.");
  }
  const out: FormFields = [];
  for (const [name, value] of data) {
    if (typeof value === "string") out.push([name, value]);
    // A file input left empty still sends an empty part: nothing was uploaded.
    else if (value.name !== "" || value.size > 0)
      throw new ApiError(
        "validation_error",
        `The field ${JSON.stringify(name)} is a file: forms take text fields only (file uploads are not supported yet).`,
      );
  }
  return out;
}

function jsonFields(body: unknown): FormFields {
  if (typeof body !== "object" || body === null || Array.isArray(body))
    throw new ApiError("validation_error", "Send one submission as a JSON object of field names and values.");
  const out: FormFields = [];
  for (const [name, value] of Object.entries(body)) {
    if (value !== null && !["string", "number", "boolean"].includes(typeof value))
      throw new ApiError(
        "validation_error",
        `The field ${JSON.stringify(name)} must be a string, number, boolean or null.`,
      );
    out.push([name, value as CellInput]);
  }
  return out;
}
