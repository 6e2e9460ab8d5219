// googleapis clients for the three ways the service reaches a spreadsheet: the API key (public
// reads), the service account (sheets shared with it), and a sheet owner's OAuth grant.
// Pointed at emulators/google through rootUrl and the OAuth endpoints when Google is emulated.
import { drive, type drive_v3 } from "@googleapis/drive";
import { sheets, type sheets_v4 } from "@googleapis/sheets";
import { JWT, OAuth2Client } from "google-auth-library";
import type { AppConfig } from "@/lib/env";

export type GoogleSettings = AppConfig["google"];

export type GoogleCredential =
  | { kind: "apiKey" }
  | { kind: "serviceAccount" }
  | { kind: "oauth"; refreshToken: string };

export interface GoogleClients {
  sheets: sheets_v4.Sheets;
  drive: drive_v3.Drive;
}

export const SHEETS_SCOPE = "https://www.googleapis.com/auth/spreadsheets";
/** Read-only Drive metadata: enough for modifiedTime and whether the caller can edit. */
export const DRIVE_METADATA_SCOPE = "https://www.googleapis.com/auth/drive.metadata.readonly";

/** OAuth endpoints: Google's own, or the emulator's (which serves them at Google's paths). */
export function oauthEndpoints(google: GoogleSettings) {
  if (!google.emulated) return undefined;
  const base = google.oauth.issuer;
  return { oauth2AuthBaseUrl: `${base}/o/oauth2/v2/auth`, oauth2TokenUrl: `${base}/token`, oauth2RevokeUrl: `${base}/revoke` };
}

export function oauthClient(google: GoogleSettings, redirectUri?: string): OAuth2Client {
  return new OAuth2Client({
    clientId: google.oauth.clientId,
    clientSecret: google.oauth.clientSecret,
    redirectUri,
    endpoints: oauthEndpoints(google),
  });
}

function serviceAccountAuth(google: GoogleSettings): JWT {
  const auth = new JWT({
    email: google.serviceAccount.email,
    key: google.serviceAccount.privateKey,
    scopes: [SHEETS_SCOPE, DRIVE_METADATA_SCOPE],
  });
  // A self-signed JWT as the access token: no token endpoint round trip, and no hard-coded
  // Google token URL for the emulator to intercept.
  auth.useJWTAccessWithScope = true;
  return auth;
}

export function createGoogleClients(google: GoogleSettings, credential: GoogleCredential): GoogleClients {
  let auth: string | JWT | OAuth2Client;
  if (credential.kind === "apiKey") auth = google.apiKey;
  else if (credential.kind === "serviceAccount") auth = serviceAccountAuth(google);
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
