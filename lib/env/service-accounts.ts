// The service's Google identities: service-account key files from GOOGLE_SERVICE_ACCOUNT_JSON and
// GOOGLE_SERVICE_ACCOUNTS (raw JSON or base64), or the embedded one under emulated Google.
import { z } from "zod";
import { EMULATOR_DEFAULTS } from "../emulator-defaults";
import { ConfigError } from "./config-error";
import type { Env } from "./schema";
import type { GeneratedSecrets } from "./secrets";

export interface ServiceAccount {
  email: string;
  privateKey: string;
  /** Where its signed assertions are exchanged for access tokens (the key file's token_uri). */
  tokenUrl: string;
}

/** Google's token endpoint: the `token_uri` of every service-account key file. */
const GOOGLE_TOKEN_URI = "https://oauth2.googleapis.com/token";

const serviceAccountKeyFile = z.object({
  client_email: z.string().email(),
  private_key: z.string().min(1),
  token_uri: z.url().optional(),
});

/** JSON as written, or base64 of it (what a secret store without newlines keeps). */
function jsonSetting(name: string, value: string): unknown {
  const text = /^\s*[[{]/.test(value) ? value : Buffer.from(value, "base64").toString("utf8");
  try {
    return JSON.parse(text);
  } catch {
    throw new ConfigError(`${name}: not JSON (nor base64 of JSON)`);
  }
}

function toServiceAccount(
  key: z.infer<typeof serviceAccountKeyFile>,
  emulatedTokenUrl: string | undefined,
): ServiceAccount {
  return {
    email: key.client_email,
    privateKey: key.private_key,
    tokenUrl: emulatedTokenUrl ?? key.token_uri ?? GOOGLE_TOKEN_URI,
  };
}

function parseServiceAccount(json: string, emulatedTokenUrl: string | undefined): ServiceAccount {
  const parsed = serviceAccountKeyFile.safeParse(jsonSetting("GOOGLE_SERVICE_ACCOUNT_JSON", json));
  if (!parsed.success) throw new ConfigError("GOOGLE_SERVICE_ACCOUNT_JSON: needs client_email and private_key");
  return toServiceAccount(parsed.data, emulatedTokenUrl);
}

/** GOOGLE_SERVICE_ACCOUNTS: a list of key files as Google gives them, one per identity. */
function parseServiceAccounts(json: string, emulatedTokenUrl: string | undefined): ServiceAccount[] {
  const parsed = z.array(serviceAccountKeyFile).min(1).safeParse(jsonSetting("GOOGLE_SERVICE_ACCOUNTS", json));
  if (!parsed.success)
    throw new ConfigError(
      "GOOGLE_SERVICE_ACCOUNTS: needs a JSON list of key files, each with client_email and private_key",
    );
  return parsed.data.map((key) => toServiceAccount(key, emulatedTokenUrl));
}

/**
 * The service's identities: GOOGLE_SERVICE_ACCOUNT_JSON first (sheets registered before the list
 * existed keep it), then the list, each address once.
 */
export function serviceAccountsOf(
  env: Env,
  emulatedTokenUrl: string | undefined,
  generated: GeneratedSecrets | undefined,
): ServiceAccount[] {
  const single = env.GOOGLE_SERVICE_ACCOUNT_JSON
    ? [parseServiceAccount(env.GOOGLE_SERVICE_ACCOUNT_JSON, emulatedTokenUrl)]
    : [];
  const listed = env.GOOGLE_SERVICE_ACCOUNTS ? parseServiceAccounts(env.GOOGLE_SERVICE_ACCOUNTS, emulatedTokenUrl) : [];
  const all = [...single, ...listed].filter(
    (account, i, list) => list.findIndex((a) => a.email === account.email) === i,
  );
  if (all.length) return all;
  return [
    {
      email: EMULATOR_DEFAULTS.serviceAccountEmail,
      privateKey: generated!.serviceAccountKey,
      tokenUrl: emulatedTokenUrl ?? GOOGLE_TOKEN_URI,
    },
  ];
}
