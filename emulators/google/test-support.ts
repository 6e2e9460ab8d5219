// For the emulator's own tests: a service account as Google's client library uses one, its key
// pair made here and the public half given to the emulator (as uploading it in IAM would). The
// JWT client's token request, built for Google's token URL, is sent to the emulator's.
import { generateKeyPairSync } from "node:crypto";
import { sheets, type sheets_v4 } from "@googleapis/sheets";
import { JWT } from "google-auth-library";
import { GOOGLE_TOKEN_URI } from "./tokens";

export interface TestServiceAccount {
  email: string;
  privateKey: string;
  publicKey: string;
}

export function newServiceAccount(email: string): TestServiceAccount {
  const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  return {
    email,
    privateKey: privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
    publicKey: publicKey.export({ type: "spki", format: "pem" }).toString(),
  };
}

export function serviceAccountClient(
  emulatorUrl: string,
  account: Pick<TestServiceAccount, "email" | "privateKey">,
  scopes: string[],
): JWT {
  const auth = new JWT({ email: account.email, key: account.privateKey, scopes });
  auth.transporter.interceptors.request.add({
    resolved: async (options) => {
      if (options.url?.toString() === GOOGLE_TOKEN_URI) options.url = new URL(`${emulatorUrl}/token`);
      return options;
    },
  });
  return auth;
}

/** The official Sheets client, signed in as `account` with the spreadsheets scope, sent to the emulator (no retries: tests see each answer). */
export function sheetsClient(
  emulatorUrl: string,
  account: Pick<TestServiceAccount, "email" | "privateKey">,
): sheets_v4.Sheets {
  const auth = serviceAccountClient(emulatorUrl, account, ["https://www.googleapis.com/auth/spreadsheets"]);
  return sheets({ version: "v4", auth, rootUrl: `${emulatorUrl}/`, retry: false });
}

/** Clicks "Allow" on the emulator's consent page as `email` and returns the authorization code. */
export async function allowConsent(authorizeUrl: string, email: string): Promise<string> {
  const url = new URL(authorizeUrl);
  url.searchParams.set("login_email", email);
  url.searchParams.set("decision", "allow");
  const res = await fetch(url, { redirect: "manual" });
  return new URL(res.headers.get("location") ?? "").searchParams.get("code") ?? "";
}
