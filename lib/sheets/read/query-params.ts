// Which query parameters a read accepts. Unknown names answer 400, so a typo (`fitler=`) is never
// silently ignored; names starting with `_` are left to the client: browsers and tools add them
// as cache-busters (jQuery's `_=1700000000000`, `_ts=`), and they never mean anything here.
// `fresh` is the URL form of `Cache-Control: no-cache`, for tools that cannot set headers.
import { ApiError, quoted } from "@/lib/errors";
import { checkSingle } from "@/lib/http/query-params";

/** Accepted by every read, besides its own parameters. */
const READ_CONTROLS = ["fresh"];

export const isClientParam = (name: string) => name.startsWith("_");

/** The first parameter not in `allowed` (names starting with `_` aside). */
const unknownParam = (params: URLSearchParams, allowed: readonly string[]) =>
  [...params.keys()].find((name) => !allowed.includes(name) && !isClientParam(name));

export function checkParams(params: URLSearchParams, known: readonly string[]): void {
  const allowed = [...known, ...READ_CONTROLS];
  const name = unknownParam(params, allowed);
  if (name !== undefined)
    throw new ApiError(
      "validation_error",
      `Unknown query parameter ${quoted(name)}. Use ${allowed.join(", ")} (names starting with _ are ignored).`,
    );
}

/**
 * A write's query parameters: only its own (names starting with `_` aside). An unknown one answers
 * 400 before anything is written: a `dry_run=true` sent where no dry run exists must never be
 * ignored and the write done.
 */
export function checkWriteParams(params: URLSearchParams, known: readonly string[]): void {
  const name = unknownParam(params, known);
  // Every parameter these writes take has one value (`upsert`); a second one answers 400.
  if (name === undefined) return checkSingle(params, known);
  const takes = known.length ? `This request takes ${known.join(", ")}` : "This request takes no query parameters";
  const dryRun = name === "dry_run" ? " (dry_run=true applies to PATCH and DELETE on the tab with ?filter=)" : "";
  throw new ApiError(
    "validation_error",
    `Unknown query parameter ${quoted(name)}: nothing was written. ${takes}${dryRun}.`,
  );
}
