// Who is calling: an API key (public reads only) or a bearer token this emulator's token endpoint
// issued; anything else, a self-signed JWT included, gets 401 as Sheets v4 and Drive v3 give it.
// Scopes are checked per method before the file is looked at.
import type { IncomingMessage } from "node:http";
import { GoogleError, permissionDenied, scopeInsufficient, unauthenticated } from "./errors";
import type { Role, Spreadsheet } from "./model";
import { hasScopeFor } from "./scopes";
import type { AccessTokens } from "./tokens";

export type Caller =
  | { kind: "apiKey" }
  /** `scopes` as granted; `client` is the OAuth client the token was issued to, if any. */
  | { kind: "account"; email: string; scopes: string[]; client?: string };

const RANK: Record<Role | "none", number> = { none: 0, reader: 1, writer: 2, owner: 3 };

/** Identifies the caller; with `method`, refuses a token none of whose scopes that method accepts (403). */
export function identify(
  req: IncomingMessage,
  url: URL,
  apiKeys: ReadonlySet<string>,
  tokens: AccessTokens,
  method?: string,
): Caller {
  const header = req.headers.authorization;
  if (header?.startsWith("Bearer ")) {
    const token = header.slice(7).trim();
    const issued = tokens.lookup(token);
    if (!issued) throw unauthenticated(method, token.split(".").length === 3);
    if (method && !hasScopeFor(method, issued.scopes)) throw scopeInsufficient(method);
    return {
      kind: "account",
      email: issued.email,
      scopes: issued.scopes,
      ...(issued.client ? { client: issued.client } : {}),
    };
  }
  const key = url.searchParams.get("key") ?? (req.headers["x-goog-api-key"] as string | undefined);
  if (key) {
    if (!apiKeys.has(key)) {
      throw new GoogleError(400, "INVALID_ARGUMENT", "API key not valid. Please pass a valid API key.", "badRequest");
    }
    return { kind: "apiKey" };
  }
  throw new GoogleError(403, "PERMISSION_DENIED", "The request is missing a valid API key.", "forbidden");
}

export function roleOf(sheet: Spreadsheet, caller: Caller): Role | "none" {
  if (caller.kind === "apiKey") return sheet.linkAccess;
  const member = sheet.members[caller.email];
  // An explicit "none" shuts an account out even of link access (tests of fallbacks use it).
  if (member === "none") return "none";
  return member && RANK[member] >= RANK[sheet.linkAccess] ? member : sheet.linkAccess;
}

/** Throws Google's answer when the caller may not read (or write) the spreadsheet. */
export function authorize(
  sheet: Spreadsheet,
  caller: Caller,
  need: "read" | "write",
  denied: () => GoogleError = permissionDenied,
): void {
  if (caller.kind === "apiKey" && need === "write") {
    throw new GoogleError(
      401,
      "UNAUTHENTICATED",
      "API keys are not supported by this API. Expected OAuth2 access token or other authentication credentials that assert a principal. See https://cloud.google.com/docs/authentication",
      "unauthorized",
    );
  }
  const role = roleOf(sheet, caller);
  if (RANK[role] < (need === "read" ? RANK.reader : RANK.writer)) throw denied();
}
