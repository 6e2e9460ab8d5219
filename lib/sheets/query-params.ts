// Which query parameters a read accepts. Unknown names answer 400, so a typo (`fitler=`) is never
// silently ignored; names starting with `_` are left to the client: browsers and tools add them
// as cache-busters (jQuery's `_=1700000000000`, `_ts=`), and they never mean anything here.
// `fresh` is the URL form of `Cache-Control: no-cache`, for tools that cannot set headers.
import { ApiError, quoted } from "@/lib/http/errors";

/** Accepted by every read, besides its own parameters. */
const READ_CONTROLS = ["fresh"];

export const isClientParam = (name: string) => name.startsWith("_");

export function checkParams(params: URLSearchParams, known: readonly string[]): void {
  for (const name of params.keys()) {
    if (known.includes(name) || READ_CONTROLS.includes(name) || isClientParam(name)) continue;
    throw new ApiError("validation_error", `Unknown query parameter ${quoted(name)}. Use ${[...known, ...READ_CONTROLS].join(", ")} (names starting with _ are ignored).`);
  }
}
