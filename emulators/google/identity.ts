// Who is calling: an API key (anonymous, public reads only) or a bearer token naming an account.
// Tokens are the service account's self-signed JWTs or the access tokens this emulator's OAuth
// server issued. The emulator reads their claims; it is a test double, not a security boundary.
import type { IncomingMessage } from "node:http";
import { GoogleError, permissionDenied, unauthenticated } from "./errors";
import type { Role, Spreadsheet } from "./model";

export type Caller =
  | { kind: "apiKey" }
  /** `scopes` as granted; `client` is the OAuth client (azp) the token was issued to, if any. */
  | { kind: "account"; email: string; scopes: string[]; client?: string };

const RANK: Record<Role | "none", number> = { none: 0, reader: 1, writer: 2, owner: 3 };

function decodeJwtPayload(token: string): Record<string, unknown> | undefined {
  const parts = token.split(".");
  if (parts.length !== 3) return undefined;
  try {
    return JSON.parse(Buffer.from(parts[1]!, "base64url").toString("utf8")) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

export function identify(req: IncomingMessage, url: URL, apiKeys: ReadonlySet<string>, revoked: ReadonlySet<string>): Caller {
  const header = req.headers.authorization;
  if (header?.startsWith("Bearer ")) {
    const token = header.slice(7).trim();
    const claims = decodeJwtPayload(token);
    const exp = typeof claims?.exp === "number" ? claims.exp : 0;
    const email = typeof claims?.email === "string" ? claims.email : typeof claims?.iss === "string" && claims.iss.endsWith(".gserviceaccount.com") ? claims.iss : undefined;
    if (!claims || !email || exp * 1000 < Date.now() || revoked.has(email)) throw unauthenticated();
    const scope = typeof claims.scope === "string" ? claims.scope : "";
    if (!/\/auth\/(spreadsheets|drive)/.test(scope)) {
      throw new GoogleError(403, "PERMISSION_DENIED", "Request had insufficient authentication scopes.", "insufficientPermissions");
    }
    const client = typeof claims.azp === "string" ? claims.azp : undefined;
    return { kind: "account", email, scopes: scope.split(/\s+/).filter(Boolean), ...(client ? { client } : {}) };
  }
  const key = url.searchParams.get("key") ?? (req.headers["x-goog-api-key"] as string | undefined);
  if (key) {
    if (!apiKeys.has(key)) {
      throw new GoogleError(400, "INVALID_ARGUMENT", "API key not valid. Please pass a valid API key.", "badRequest");
    }
    return { kind: "apiKey" };
  }
  throw new GoogleError(
    403,
    "PERMISSION_DENIED",
    "The request is missing a valid API key.",
    "forbidden",
  );
}

export function roleOf(sheet: Spreadsheet, caller: Caller): Role | "none" {
  if (caller.kind === "apiKey") return sheet.linkAccess;
  const member = sheet.members[caller.email];
  // An explicit "none" shuts an account out even of link access (tests of fallbacks use it).
  if (member === "none") return "none";
  return member && RANK[member] >= RANK[sheet.linkAccess] ? member : sheet.linkAccess;
}

/** Throws Google's answer when the caller may not read (or write) the spreadsheet. */
export function authorize(sheet: Spreadsheet, caller: Caller, need: "read" | "write"): void {
  if (caller.kind === "apiKey" && need === "write") {
    throw new GoogleError(
      401,
      "UNAUTHENTICATED",
      "API keys are not supported by this API. Expected OAuth2 access token or other authentication credentials that assert a principal. See https://cloud.google.com/docs/authentication",
      "unauthorized",
    );
  }
  const role = roleOf(sheet, caller);
  if (RANK[role] < (need === "read" ? RANK.reader : RANK.writer)) throw permissionDenied();
}
