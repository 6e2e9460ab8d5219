// What `sheet_url` may be: a Google Sheets address or a bare spreadsheet id. The value is parsed,
// never fetched, so a registration can not be turned into a request to an arbitrary host.
import { ApiError } from "@/lib/errors";

const ID = /^[A-Za-z0-9_-]{20,128}$/;
const SHEETS_HOSTS = new Set(["docs.google.com", "spreadsheets.google.com"]);

/** A bare spreadsheet id, as the dashboard's own redirects carry one (never free text). */
export const isSheetId = (value: unknown): value is string => typeof value === "string" && ID.test(value);

export function parseSheetReference(input: unknown): string {
  if (typeof input !== "string" || input.trim() === "") {
    throw new ApiError("validation_error", "sheet_url is required: a Google Sheets address or a spreadsheet id.");
  }
  const value = input.trim();
  if (ID.test(value)) return value;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw notSheets();
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") throw notSheets();
  if (!SHEETS_HOSTS.has(url.hostname.toLowerCase()) || url.port !== "") throw notSheets();
  // /spreadsheets/d/{id}/edit, also with a /u/{n}/ account segment.
  const match = /^\/(?:u\/\d+\/)?spreadsheets\/d\/([A-Za-z0-9_-]+)/.exec(url.pathname);
  if (!match || !ID.test(match[1]!)) throw notSheets();
  return match[1]!;
}

/** The spreadsheet id in an address or a bare id; undefined when there is none. */
export function sheetIdIn(input: string): string | undefined {
  try {
    return parseSheetReference(input);
  } catch {
    return undefined;
  }
}

function notSheets(): ApiError {
  return new ApiError(
    "validation_error",
    "sheet_url must be a Google Sheets address (https://docs.google.com/spreadsheets/d/<id>/edit) or a spreadsheet id.",
  );
}
