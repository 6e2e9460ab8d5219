// The account's Google grant (DECISIONS 19): one consent per Google account, asking only for
// non-restricted scopes (sign-in and drive.file), kept encrypted and reused for every sheet.
// drive.file reaches only the files the person picks in the Google Picker, which is what proves
// access when a sheet is registered (lib/sheets/access/proof.ts).
import { randomBytes, timingSafeEqual } from "node:crypto";
import { saveGrant } from "@/db/queries/grants";
import type { GoogleGrant } from "@/db/schema";
import { config } from "@/lib/env";
import { DRIVE_FILE_SCOPE, GRANT_SCOPES, oauthClient } from "@/lib/google/clients";
import { ApiError } from "@/lib/errors";
import { newId } from "@/lib/keys/ids";
import { publishSheet } from "@/lib/sheets/sheet-record";
import type { SessionUser } from "./session";
import { encryptSecret } from "@/lib/token-crypto";

export const GRANT_COOKIE = "sheetapi_grant";
export const GRANT_CALLBACK_PATH = "/auth/google/callback";

const redirectUri = () => `${config().appUrl}${GRANT_CALLBACK_PATH}`;

/** What the consent was started for: a sheet to register through the grant, or the Picker. */
export interface PendingGrant {
  state: string;
  userId: string;
  sheetId?: string;
}

/** Where to send the person, and the cookie that ties the callback to this request. */
export function startGrant(user: SessionUser, sheetId?: string): { authorizeUrl: string; cookie: string } {
  const state = randomBytes(24).toString("base64url");
  const authorizeUrl = oauthClient(config().google, redirectUri()).generateAuthUrl({
    access_type: "offline",
    // Google returns a refresh token only on consent; this runs only when the account has no
    // usable grant, so the one token is replaced, never multiplied.
    prompt: "consent",
    include_granted_scopes: true,
    login_hint: user.email,
    scope: [...GRANT_SCOPES],
    state,
  });
  const pending: PendingGrant = { state, userId: user.id, ...(sheetId ? { sheetId } : {}) };
  return { authorizeUrl, cookie: JSON.stringify(pending) };
}

function idClaims(idToken: string | null | undefined): { sub?: string; email?: string } {
  const payload = idToken?.split(".")[1];
  if (!payload) return {};
  // Received straight from the token endpoint over TLS, so the claims need no signature check.
  const claims = JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as { sub?: unknown; email?: unknown };
  return {
    sub: typeof claims.sub === "string" ? claims.sub : undefined,
    email: typeof claims.email === "string" ? claims.email : undefined,
  };
}

function sameState(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** The message for a consent that left out a scope the service needs, and how to fix it. */
export function missingScopeMessage(granted: string): string | undefined {
  if (granted.split(/\s+/).includes(DRIVE_FILE_SCOPE)) return undefined;
  return (
    "Google did not give SheetAPI access to the spreadsheets you choose: the permission " +
    "“See, edit, create and delete only the specific Google Drive files that you use with this app” " +
    `(${DRIVE_FILE_SCOPE}) was unticked on Google's consent screen. Start again and leave it ticked: ` +
    "it lets SheetAPI open only the files you pick, nothing else in your Drive."
  );
}

export function readPendingGrant(cookie: string | undefined): Partial<PendingGrant> {
  try {
    return cookie ? (JSON.parse(cookie) as Partial<PendingGrant>) : {};
  } catch {
    return {}; // a damaged cookie is treated like a missing one
  }
}

/** Google's answer to the consent: checks it, stores the grant, returns it with the pending sheet. */
export async function completeGrant(input: {
  user: SessionUser;
  cookie: string | undefined;
  params: URLSearchParams;
}): Promise<{ grant: GoogleGrant; sheetId?: string }> {
  const pending = readPendingGrant(input.cookie);
  const state = input.params.get("state") ?? "";
  if (!pending.state || pending.userId !== input.user.id || !sameState(pending.state, state)) {
    throw new ApiError(
      "validation_error",
      "This authorization link has expired or was not started here. Start again from the dashboard.",
    );
  }
  const denied = input.params.get("error");
  if (denied)
    throw new ApiError(
      "forbidden",
      "You cancelled on Google's consent screen, so SheetAPI has no access to your spreadsheets. Start again to register a sheet.",
    );
  const code = input.params.get("code");
  if (!code)
    throw new ApiError("validation_error", "Google sent no authorization code. Start again from the dashboard.");
  const { tokens } = await oauthClient(config().google, redirectUri()).getToken(code);
  const missing = missingScopeMessage(tokens.scope ?? "");
  if (missing) throw new ApiError("forbidden", missing);
  if (!tokens.refresh_token)
    throw new ApiError("validation_error", "Google sent no refresh token. Start again and allow offline access.");
  const { sub, email } = idClaims(tokens.id_token);
  if (!sub)
    throw new ApiError("validation_error", "Google did not say which account signed in (no ID token). Start again.");
  const { grant, sheets } = await saveGrant({
    id: newId("grant"),
    userId: input.user.id,
    googleSub: sub,
    email: email ?? input.user.email,
    refreshTokenCiphertext: encryptSecret(tokens.refresh_token, config().secrets.encryptionKey),
    scope: tokens.scope ?? "",
  });
  // Sheets reached through the grant use the new token on every instance at once.
  for (const row of sheets) await publishSheet(row);
  return { grant, sheetId: pending.sheetId };
}
