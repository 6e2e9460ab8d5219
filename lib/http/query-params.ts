// A query parameter sent twice is refused, for every route that reads query parameters.
import { ApiError, quoted } from "@/lib/errors";

/**
 * Parameters that take one value: sent twice, they answer 400 rather than one of the two being
 * used in silence (`limit=10&limit=1000`).
 */
export function checkSingle(params: URLSearchParams, names: readonly string[]): void {
  for (const name of names) {
    const values = params.getAll(name);
    if (values.length < 2) continue;
    throw new ApiError(
      "validation_error",
      `The query parameter ${quoted(name)} was sent ${values.length} times; it takes one value.`,
    );
  }
}
