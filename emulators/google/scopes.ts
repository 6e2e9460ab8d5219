// Which OAuth scopes each method accepts, from the Sheets v4 and Drive v3 discovery documents.
// A token with none of them gets 403 ACCESS_TOKEN_SCOPE_INSUFFICIENT, before the file is looked at.
const AUTH = "https://www.googleapis.com/auth/";

const SHEETS_READ = ["drive", "drive.file", "drive.readonly", "spreadsheets", "spreadsheets.readonly"];
const SHEETS_WRITE = ["drive", "drive.file", "spreadsheets"];
const DRIVE_FILES_GET = [
  "drive",
  "drive.appdata",
  "drive.file",
  "drive.meet.readonly",
  "drive.metadata",
  "drive.metadata.readonly",
  "drive.photos.readonly",
  "drive.readonly",
];

const BY_METHOD: Record<string, string[]> = {
  "spreadsheets.get": SHEETS_READ,
  "values.get": SHEETS_READ,
  "values.batchGet": SHEETS_READ,
  "spreadsheets.batchUpdate": SHEETS_WRITE,
  "values.update": SHEETS_WRITE,
  "values.batchUpdate": SHEETS_WRITE,
  "values.append": SHEETS_WRITE,
  "values.clear": SHEETS_WRITE,
  "values.batchClear": SHEETS_WRITE,
  "files.get": DRIVE_FILES_GET,
};

/** Whether any of a token's scopes is one the method accepts (discovery documents). */
export function hasScopeFor(method: string, tokenScopes: readonly string[]): boolean {
  const accepted = BY_METHOD[method];
  return (
    accepted === undefined || tokenScopes.some((s) => s.startsWith(AUTH) && accepted.includes(s.slice(AUTH.length)))
  );
}
