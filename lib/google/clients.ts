// googleapis clients for the three ways the service reaches a spreadsheet: the API key (public
// reads), the service account (sheets shared with it), and a sheet owner's OAuth grant.
// Pointed at emulators/google through rootUrl and the OAuth endpoints when Google is emulated.
import { drive, type drive_v3 } from "@googleapis/drive";
import { sheets, type sheets_v4 } from "@googleapis/sheets";
import { JWT, OAuth2Client } from "google-auth-library";
import type { AppConfig } from "@/lib/env";
import { markServiceAccountSignIn } from "./errors";

export type GoogleSettings = AppConfig["google"];

export type GoogleCredential =
  | { kind: "apiKey" }
  /** `email`: which of the service's identities (the first when unset). */
  | { kind: "serviceAccount"; email?: string }
  | { kind: "oauth"; refreshToken: string };

export interface GoogleClients {
  sheets: sheets_v4.Sheets;
  drive: drive_v3.Drive;
}

export const SHEETS_SCOPE = "https://www.googleapis.com/auth/spreadsheets";
/**
 * Non-sensitive: the files the person picks in the Google Picker (or the app creates), for both
 * Drive files.get (canEdit, modifiedTime) and Sheets values.*. The only scope people grant.
 */
export const DRIVE_FILE_SCOPE = "https://www.googleapis.com/auth/drive.file";
/** What an account's grant asks Google for: sign-in (to tell which Google account) and drive.file. */
export const GRANT_SCOPES = ["openid", "email", DRIVE_FILE_SCOPE] as const;
/**
 * Read-only Drive metadata for the service account only (no consent, so no verification):
 * modifiedTime and canEdit of the sheets shared with it. Restricted for people: never asked of them.
 */
export const DRIVE_METADATA_SCOPE = "https://www.googleapis.com/auth/drive.metadata.readonly";

/** OAuth endpoints: Google's own, or the emulator's (which serves them at Google's paths). */
export function oauthEndpoints(google: GoogleSettings) {
  if (!google.emulated) return undefined;
  const base = google.oauth.issuer;
  return {
    oauth2AuthBaseUrl: `${base}/o/oauth2/v2/auth`,
    oauth2TokenUrl: `${base}/token`,
    oauth2RevokeUrl: `${base}/revoke`,
  };
}

export function oauthClient(google: GoogleSettings, redirectUri?: string): OAuth2Client {
  return new OAuth2Client({
    clientId: google.oauth.clientId,
    clientSecret: google.oauth.clientSecret,
    redirectUri,
    endpoints: oauthEndpoints(google),
  });
}

/** The token endpoint gtoken (inside google-auth-library's JWT client) has built in. */
export const GOOGLE_TOKEN_URL = "https://oauth2.googleapis.com/token";

// One JWT client per process and service account: it exchanges a signed assertion at the token
// endpoint (the JWT-bearer grant) and keeps the access token until shortly before it expires, so
// every sheet, registration and change check of that identity shares one token instead of
// signing in per call.
const serviceAccountClients = new Map<string, { fingerprint: string; auth: JWT }>();

/** One of the service's identities by address; undefined when it is not configured (any more). */
export function serviceAccountOf(google: GoogleSettings, email: string | undefined) {
  return email === undefined ? google.serviceAccount : google.serviceAccounts.find((a) => a.email === email);
}

function serviceAccountAuth(google: GoogleSettings, which: string | undefined): JWT {
  const account = serviceAccountOf(google, which);
  if (!account) throw new Error(`the service account ${which} is not configured (GOOGLE_SERVICE_ACCOUNTS)`);
  const { email, privateKey, tokenUrl } = account;
  const fingerprint = `${email}\n${tokenUrl}\n${privateKey}`;
  const cached = serviceAccountClients.get(email);
  if (cached?.fingerprint === fingerprint) return cached.auth;
  const auth = new JWT({ email, key: privateKey, scopes: [SHEETS_SCOPE, DRIVE_METADATA_SCOPE] });
  // The token request goes where the configuration says: the key file's token_uri (Google's own
  // endpoint in production) or the emulator's. gtoken only knows Google's URL, so the request is
  // pointed there on its way out; production takes this same path with an identical URL.
  auth.transporter.interceptors.request.add({
    resolved: async (options) => {
      if (options.url?.toString() === GOOGLE_TOKEN_URL && tokenUrl !== GOOGLE_TOKEN_URL)
        options.url = new URL(tokenUrl);
      return options;
    },
  });
  // A refused token exchange is the service account failing to sign in: marked here, where it is
  // known, so it is never mistaken for an owner's revoked grant (both say invalid_grant).
  auth.transporter.interceptors.response.add({
    rejected: async (err: unknown) => {
      const url = (err as { config?: { url?: URL | string } }).config?.url?.toString();
      if (url === tokenUrl || url === GOOGLE_TOKEN_URL) markServiceAccountSignIn(err);
      throw err;
    },
  });
  serviceAccountClients.set(email, { fingerprint, auth });
  return auth;
}

export function createGoogleClients(google: GoogleSettings, credential: GoogleCredential): GoogleClients {
  let auth: string | JWT | OAuth2Client;
  if (credential.kind === "apiKey") auth = google.apiKey;
  else if (credential.kind === "serviceAccount") auth = serviceAccountAuth(google, credential.email);
  else {
    const client = oauthClient(google);
    client.setCredentials({ refresh_token: credential.refreshToken });
    auth = client;
  }
  // Retries are the service's own (bounded, with backoff), so the libraries' are off.
  const options = {
    auth,
    rootUrl: google.rootUrl ? `${google.rootUrl}/` : undefined,
    timeout: google.requestTimeoutMs,
    retry: false,
  };
  return { sheets: sheets({ version: "v4", ...options }), drive: drive({ version: "v3", ...options }) };
}
