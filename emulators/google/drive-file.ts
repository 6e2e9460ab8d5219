// The `drive.file` scope: a token that holds it (and no broader Drive or Sheets scope) reaches
// only the files its account picked for that app with the Google Picker, or that the app
// created. Google answers other files as if they did not exist: Drive 404 "File not found".
import { GoogleError } from "./errors";
import type { Caller } from "./identity";
import type { Spreadsheet } from "./model";

export const DRIVE_FILE_SCOPE = "https://www.googleapis.com/auth/drive.file";

const AUTH = "https://www.googleapis.com/auth/";
/** Scopes that reach every file the account can see, per API (the discovery documents). */
const BROAD = {
  drive: ["drive", "drive.readonly", "drive.metadata", "drive.metadata.readonly"].map((s) => AUTH + s),
  sheets: ["drive", "drive.readonly", "spreadsheets", "spreadsheets.readonly"].map((s) => AUTH + s),
};

/** An app's id for per-file grants: the OAuth client the token was issued to. */
const grantKey = (client: string | undefined, email: string) => `${client ?? ""} ${email}`;

export function grantFile(sheet: Spreadsheet, client: string | undefined, email: string): void {
  const key = grantKey(client, email);
  sheet.fileGrants = [...new Set([...(sheet.fileGrants ?? []), key])];
}

/** Throws Google's answer when a drive.file-only token asks for a file it was not given. */
export function checkFileScope(sheet: Spreadsheet, caller: Caller, api: "drive" | "sheets"): void {
  if (caller.kind !== "account") return;
  if (caller.scopes.some((s) => BROAD[api].includes(s))) return;
  if (!caller.scopes.includes(DRIVE_FILE_SCOPE)) return;
  if (sheet.fileGrants?.includes(grantKey(caller.client, caller.email))) return;
  if (api === "drive") throw new GoogleError(404, "NOT_FOUND", `File not found: ${sheet.spreadsheetId}.`, "notFound");
  // Sheets answers a file outside the grant like one the account cannot open (uncertain: 404 is
  // also seen); the product treats both as "not proven".
  throw new GoogleError(403, "PERMISSION_DENIED", "The caller does not have permission", "forbidden");
}
