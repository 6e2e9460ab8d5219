// Reads a JSON body with a size limit enforced while streaming: route handlers have none of their own.
import { ApiError, clip } from "@/lib/errors";

export const MAX_BODY_BYTES = 1024 * 1024;

const JSON_TYPE = /^application\/([\w.+-]+\+)?json\b/i;
const CHARSET = /;\s*charset\s*=\s*"?([^";\s]*)/i;

/**
 * The request's JSON value. A body that is not JSON (not UTF-8, not parseable, empty) answers 400
 * whatever its Content-Type says (DECISIONS 4); JSON sent under another media type, or in another
 * charset than UTF-8, answers 415.
 */
export async function readJsonBody(req: Request, { maxBytes = MAX_BODY_BYTES } = {}): Promise<unknown> {
  const type = req.headers.get("content-type") ?? "";
  const declared = Number(req.headers.get("content-length") ?? "0");
  if (declared > maxBytes) throw tooLarge(maxBytes);
  const text = await readLimited(req, maxBytes);
  if (text.trim() === "") throw new ApiError("validation_error", "The request body is empty; send a JSON value.");
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new ApiError("validation_error", `The request body is not valid JSON: ${clip((err as Error).message)}`);
  }
  if (!JSON_TYPE.test(type))
    throw new ApiError(
      "unsupported_media_type",
      "Send the body as JSON with the header Content-Type: application/json.",
    );
  const charset = CHARSET.exec(type)?.[1]?.toLowerCase();
  if (charset !== undefined && charset !== "utf-8" && charset !== "utf8") {
    throw new ApiError(
      "unsupported_media_type",
      `The body must be UTF-8 (Content-Type: application/json; charset=utf-8); got charset=${clip(charset)}.`,
    );
  }
  return value;
}

/** The body as text, exactly as sent (a signature covers its bytes), with the same size limit. */
export async function readTextBody(req: Request, { maxBytes = MAX_BODY_BYTES } = {}): Promise<string> {
  if (Number(req.headers.get("content-length") ?? "0") > maxBytes) throw tooLarge(maxBytes);
  return readLimited(req, maxBytes);
}

function tooLarge(maxBytes: number): ApiError {
  // The rest of the body is not read: the connection cannot carry another request after it.
  return new ApiError(
    "payload_too_large",
    `The request body is larger than ${Math.round(maxBytes / 1024)} KB.`,
    {},
    { Connection: "close" },
  );
}

async function readLimited(req: Request, maxBytes: number): Promise<string> {
  if (!req.body) return "";
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      throw tooLarge(maxBytes);
    }
    chunks.push(value);
  }
  try {
    return UTF8.decode(Buffer.concat(chunks));
  } catch {
    // JSON text is UTF-8 (RFC 8259): a byte that is not would be stored as U+FFFD.
    throw new ApiError("validation_error", "The request body is not valid UTF-8: JSON text must be encoded in UTF-8.");
  }
}

const UTF8 = new TextDecoder("utf-8", { fatal: true });
