// Helpers for tests that talk to emulators/google.
import { createPublicKey, generateKeyPairSync } from "node:crypto";
import type { GoogleSettings } from "@/lib/google/clients";
import { EMULATOR_DEFAULTS } from "@/lib/google/emulator-defaults";

let privateKey: string | undefined;

/** Gives the emulator the public half of a service account's key, as uploading it in IAM would. */
export async function uploadServiceAccountKey(emulatorUrl: string, account: { email: string; privateKey: string }): Promise<void> {
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
  privateKey ??= generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey.export({ type: "pkcs8", format: "pem" }).toString();
  const serviceAccount = { email: EMULATOR_DEFAULTS.serviceAccountEmail, privateKey, tokenUrl: `${url}/token` };
  await uploadServiceAccountKey(url, serviceAccount);
  return {
    emulated: true,
    rootUrl: url,
    apiKey: EMULATOR_DEFAULTS.apiKey,
    serviceAccount,
    oauth: { clientId: EMULATOR_DEFAULTS.clientId, clientSecret: EMULATOR_DEFAULTS.clientSecret, issuer: url },
    requestTimeoutMs: 5000,
    retryBudgetMs: 2000,
  };
}

/** Clicks "Allow" on the emulator's consent page as `email` and returns the redirect's code. */
export async function consentCode(authorizeUrl: string, email: string): Promise<{ code: string; state: string | null }> {
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
  const url = client.generateAuthUrl({ access_type: "offline", prompt: "consent", scope: [SHEETS_SCOPE, DRIVE_METADATA_SCOPE] });
  const { code } = await consentCode(url, email);
  const { tokens } = await client.getToken(code);
  return tokens.refresh_token!;
}
