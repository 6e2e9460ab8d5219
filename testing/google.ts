// Helpers for tests that talk to emulators/google.
import { createPublicKey, generateKeyPairSync } from "node:crypto";
import type { GoogleSettings } from "@/lib/google/clients";
import { EMULATOR_DEFAULTS } from "@/lib/emulator-defaults";

let privateKey: string | undefined;

/** Gives the emulator the public half of a service account's key, as uploading it in IAM would. */
export async function uploadServiceAccountKey(
  emulatorUrl: string,
  account: { email: string; privateKey: string },
): Promise<void> {
  const publicKey = createPublicKey(account.privateKey).export({ type: "spki", format: "pem" }).toString();
  const res = await fetch(`${emulatorUrl}/__admin/service-account-keys`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email: account.email, publicKey }),
  });
  if (!res.ok) throw new Error(`emulator refused the service account key: HTTP ${res.status}`);
}

/** Google settings for the service pointed at an emulator on `url`, its service account's key uploaded there. */
export async function googleSettingsFor(url: string): Promise<GoogleSettings> {
  privateKey ??= generateKeyPairSync("rsa", { modulusLength: 2048 })
    .privateKey.export({ type: "pkcs8", format: "pem" })
    .toString();
  const serviceAccount = { email: EMULATOR_DEFAULTS.serviceAccountEmail, privateKey, tokenUrl: `${url}/token` };
  await uploadServiceAccountKey(url, serviceAccount);
  return {
    emulated: true,
    rootUrl: url,
    apiKey: EMULATOR_DEFAULTS.apiKey,
    serviceAccount,
    serviceAccounts: [serviceAccount],
    oauth: { clientId: EMULATOR_DEFAULTS.clientId, clientSecret: EMULATOR_DEFAULTS.clientSecret, issuer: url },
    picker: {
      scriptUrl: `${url}/js/api.js`,
      appId: EMULATOR_DEFAULTS.projectNumber,
      developerKey: EMULATOR_DEFAULTS.apiKey,
    },
    requestTimeoutMs: 5000,
    retryBudgetMs: 2000,
  };
}

/** Clicks "Allow" on the emulator's consent page as `email` and returns the redirect's code. */
export async function consentCode(
  authorizeUrl: string,
  email: string,
): Promise<{ code: string; state: string | null }> {
  const url = new URL(authorizeUrl);
  url.searchParams.set("login_email", email);
  url.searchParams.set("decision", "allow");
  const res = await fetch(url, { redirect: "manual" });
  const location = new URL(res.headers.get("location") ?? "");
  return { code: location.searchParams.get("code") ?? "", state: location.searchParams.get("state") };
}

/** A refresh token from the service's own OAuth client, granted on the emulator's consent as `email`. */
export async function ownerRefreshToken(email: string): Promise<string> {
  const { oauthClient, SHEETS_SCOPE, DRIVE_METADATA_SCOPE } = await import("@/lib/google/clients");
  const { config } = await import("@/lib/env");
  const client = oauthClient(config().google, "http://127.0.0.1:9/cb");
  // As the service's own grant asks: both scopes (Drive's files.get needs a Drive scope), offline,
  // with consent (Google issues another refresh token to an account that has one only then).
  const url = client.generateAuthUrl({
    access_type: "offline",
    prompt: "consent",
    scope: [SHEETS_SCOPE, DRIVE_METADATA_SCOPE],
  });
  const { code } = await consentCode(url, email);
  const { tokens } = await client.getToken(code);
  return tokens.refresh_token!;
}

/**
 * The account connects Google as `googleEmail` through the service's own grant flow (consent on
 * the emulator, callback checks), as the dashboard's "Choose a sheet from Google Drive" does.
 */
export async function connectGoogleAccount(
  user: { id: string; email: string | null },
  googleEmail: string = EMULATOR_DEFAULTS.userEmail,
  ticked?: string[],
) {
  const { startGrant, completeGrant } = await import("@/lib/auth/google-grant");
  const session = { id: user.id, email: user.email ?? googleEmail, name: null };
  const { authorizeUrl, cookie } = startGrant(session);
  const url = new URL(authorizeUrl);
  if (ticked) {
    url.searchParams.set("consent_shown", "1");
    for (const s of ticked) url.searchParams.append("granted", s);
  }
  const { code, state } = await consentCode(url.toString(), googleEmail);
  return completeGrant({ user: session, cookie, params: new URLSearchParams({ code, state: state ?? "" }) });
}

/** Picks spreadsheets in the emulator's Google Picker with the account's grant, as a click there does. */
export async function pickInGooglePicker(userId: string, ids: string[]): Promise<void> {
  const { pickerAccessToken } = await import("@/lib/sheets/access/proof");
  const { config } = await import("@/lib/env");
  const access = await pickerAccessToken(userId);
  if (!access) throw new Error("the account has no Google grant: connect it first");
  for (const fileId of ids) {
    const res = await fetch(`${config().google.rootUrl}/picker/pick`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ oauth_token: access.token, fileId, appId: config().google.picker.appId }),
    });
    if (!res.ok) throw new Error(`the picker refused ${fileId}: ${res.status}`);
  }
}

/** Proof of access the way people give it: connect Google as `googleEmail`, then pick `ids`. */
export async function proveAccessWithGoogle(
  user: { id: string; email: string | null },
  ids: string[],
  googleEmail: string = EMULATOR_DEFAULTS.userEmail,
): Promise<void> {
  const { usableGrants } = await import("@/lib/sheets/access/proof");
  const { config } = await import("@/lib/env");
  // The Google account must be able to open the sheets: a test sheet shared only with the service
  // account gets it as an editor, as its owner would share it.
  for (const id of ids) {
    const admin = `${config().google.rootUrl}/__admin/spreadsheets/${id}`;
    const sheet = (await (await fetch(admin)).json()) as { members?: Record<string, string> };
    if (sheet.members && !sheet.members[googleEmail]) {
      await fetch(`${admin}/access`, {
        method: "PATCH",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ members: { [googleEmail]: "writer" } }),
      });
    }
  }
  if (!(await usableGrants(user.id)).length) await connectGoogleAccount(user, googleEmail);
  await pickInGooglePicker(user.id, ids);
}

/** A sheet registered by `user` after proving access with Google (DECISIONS 18): its first API key. */
export async function registeredKey(user: { id: string; email: string | null }, sheetId: string): Promise<string> {
  const { registerSheet } = await import("@/lib/sheets/registration/registration");
  await proveAccessWithGoogle(user, [sheetId]);
  const { apiKey } = await registerSheet({ userId: user.id, sheetUrl: sheetId });
  // Only a sheet the account already held comes back without one.
  if (!apiKey) throw new Error(`registering ${sheetId} gave no API key: was it registered already?`);
  return apiKey;
}
