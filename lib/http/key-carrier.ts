// Where a request carries its API key: the X-API-Key header (the spec's), or the standard
// `Authorization: Bearer <key>` that HTTP tools, no-code platforms and OpenAPI clients send
// without configuration. Both at once must agree: two different keys are refused, never guessed.
import { ApiError } from "@/lib/errors";

export const API_KEY_HEADER = "X-API-Key";

// The 400 of a request carrying two different keys: no valid key either, so counted as a bad one.
const twoKeys = new WeakSet<ApiError>();
export const carriesTwoKeys = (err: unknown): boolean => err instanceof ApiError && twoKeys.has(err);

/** The key the request carries, trimmed; undefined when it carries none. */
export function requestKey(req: Request): string | undefined {
  const header = req.headers.get(API_KEY_HEADER)?.trim() || undefined;
  const authorization = req.headers.get("authorization")?.trim();
  const bearer = authorization ? /^Bearer\s+(\S+)\s*$/i.exec(authorization)?.[1] : undefined;
  if (authorization && !bearer && !header) {
    throw new ApiError(
      "unauthorized",
      `The Authorization header must be "Bearer <key>"; or send the key in the ${API_KEY_HEADER} header.`,
    );
  }
  if (header && bearer && header !== bearer) {
    const err = new ApiError(
      "validation_error",
      `The request carries two different keys (${API_KEY_HEADER} and Authorization: Bearer): send one.`,
    );
    twoKeys.add(err);
    throw err;
  }
  return header ?? bearer;
}
