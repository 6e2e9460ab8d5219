// Reads a JSON body with a size limit enforced while streaming: route handlers have none of their own.
import { ApiError, clip } from "./errors";

export const MAX_BODY_BYTES = 1024 * 1024;

export async function readJsonBody(req: Request, { maxBytes = MAX_BODY_BYTES } = {}): Promise<unknown> {
  const type = req.headers.get("content-type") ?? "";
  if (!/^application\/([\w.+-]+\+)?json\b/i.test(type)) {
    throw new ApiError("unsupported_media_type", "Send the body as JSON with the header Content-Type: application/json.");
  }
  const declared = Number(req.headers.get("content-length") ?? "0");
  if (declared > maxBytes) throw tooLarge(maxBytes);
  const text = await readLimited(req, maxBytes);
  if (text.trim() === "") throw new ApiError("validation_error", "The request body is empty; send a JSON value.");
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new ApiError("validation_error", `The request body is not valid JSON: ${clip((err as Error).message)}`);
  }
}

function tooLarge(maxBytes: number): ApiError {
  // The rest of the body is not read: the connection cannot carry another request after it.
  return new ApiError("payload_too_large", `The request body is larger than ${Math.round(maxBytes / 1024)} KB.`, {}, { Connection: "close" });
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
  return Buffer.concat(chunks).toString("utf8");
}
