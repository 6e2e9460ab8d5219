// The private registration flow (DECISIONS 19): the owner grants the service access to their
// spreadsheets on Google's consent screen; the refresh token is kept encrypted with the sheet.
import { randomBytes, timingSafeEqual } from "node:crypto";
import { config } from "@/lib/env";
import { DRIVE_METADATA_SCOPE, oauthClient, SHEETS_SCOPE } from "@/lib/google/clients";
import { ApiError } from "@/lib/http/errors";
import { registerPrivateSheet, type Registration } from "@/lib/sheets/registration";
import type { SessionUser } from "./session";

export const GRANT_COOKIE = "sheetapi_grant";
export const GRANT_CALLBACK_PATH = "/auth/google/callback";

const redirectUri = () => `${config().appUrl}${GRANT_CALLBACK_PATH}`;

/** Where to send the owner, and the cookie that ties the callback to this request. */
export function startSheetGrant(user: SessionUser, sheetId: string): { authorizeUrl: string; cookie: string } {
  const state = randomBytes(24).toString("base64url");
  const authorizeUrl = oauthClient(config().google, redirectUri()).generateAuthUrl({
    access_type: "offline",
    // Always ask: Google only returns a refresh token on consent.
    prompt: "consent",
    include_granted_scopes: true,
    login_hint: user.email,
    scope: ["openid", "email", SHEETS_SCOPE, DRIVE_METADATA_SCOPE],
    state,
  });
  return { authorizeUrl, cookie: JSON.stringify({ state, sheetId, userId: user.id }) };
}

function emailFromIdToken(idToken: string | null | undefined): string | undefined {
  const payload = idToken?.split(".")[1];
  if (!payload) return undefined;
  // Received straight from the token endpoint over TLS, so the claims need no signature check.
  const claims = JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as { email?: unknown };
  return typeof claims.email === "string" ? claims.email : undefined;
}

function sameState(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

export async function completeSheetGrant(input: {
  user: SessionUser;
  cookie: string | undefined;
  params: URLSearchParams;
}): Promise<Registration> {
  let pending: { state?: string; sheetId?: string; userId?: string } = {};
  try {
    pending = input.cookie ? JSON.parse(input.cookie) : {};
  } catch {
    // a damaged cookie is treated like a missing one
  }
  const state = input.params.get("state") ?? "";
  if (!pending.state || !pending.sheetId || pending.userId !== input.user.id || !sameState(pending.state, state)) {
    throw new ApiError("validation_error", "This authorization link has expired or was not started here. Start again from the dashboard.");
  }
  const denied = input.params.get("error");
  if (denied) throw new ApiError("forbidden", `Google access was not granted (${denied}).`);
  const code = input.params.get("code");
  if (!code) throw new ApiError("validation_error", "Google sent no authorization code.");
  const { tokens } = await oauthClient(config().google, redirectUri()).getToken(code);
  if (!tokens.refresh_token) throw new ApiError("validation_error", "Google sent no refresh token; start again to grant offline access.");
  const scopes = tokens.scope ?? "";
  if (!scopes.includes(SHEETS_SCOPE)) {
    throw new ApiError("forbidden", "Access to Google Sheets was not granted; tick the Sheets permission on the consent screen.");
  }
  return registerPrivateSheet({
    userId: input.user.id,
    sheetId: pending.sheetId,
    refreshToken: tokens.refresh_token,
    grantEmail: emailFromIdToken(tokens.id_token) ?? input.user.email,
  });
}
