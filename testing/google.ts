// Helpers for tests that talk to emulators/google.
import { generateKeyPairSync } from "node:crypto";
import type { GoogleSettings } from "@/lib/google/clients";
import { EMULATOR_DEFAULTS } from "@/lib/google/emulator-defaults";

let privateKey: string | undefined;

/** Google settings for the service pointed at an emulator on `url`. */
export function googleSettingsFor(url: string): GoogleSettings {
  privateKey ??= generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey.export({ type: "pkcs8", format: "pem" }).toString();
  return {
    emulated: true,
    rootUrl: url,
    apiKey: EMULATOR_DEFAULTS.apiKey,
    serviceAccount: { email: EMULATOR_DEFAULTS.serviceAccountEmail, privateKey },
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
  const { oauthClient, SHEETS_SCOPE } = await import("@/lib/google/clients");
  const { config } = await import("@/lib/env");
  const client = oauthClient(config().google, "http://127.0.0.1:9/cb");
  const { code } = await consentCode(client.generateAuthUrl({ access_type: "offline", scope: [SHEETS_SCOPE] }), email);
  const { tokens } = await client.getToken(code);
  return tokens.refresh_token!;
}
