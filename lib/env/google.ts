// Where Google is: Google's own endpoints when the service has its own service account and OAuth
// client, otherwise emulators/google (on loopback, or at GOOGLE_API_ROOT_URL).
import { EMULATOR_DEFAULTS } from "../emulator-defaults";
import type { Env } from "./schema";
import type { GeneratedSecrets } from "./secrets";
import { serviceAccountsOf, type ServiceAccount } from "./service-accounts";

export interface GoogleConfig {
  /** True when Google is emulators/google (embedded default or GOOGLE_API_ROOT_URL). */
  emulated: boolean;
  /** Base for the Sheets and Drive clients; undefined means Google's own endpoints. */
  rootUrl?: string;
  apiKey: string;
  /** The first identity: sheets registered before there were several keep it. */
  serviceAccount: ServiceAccount;
  /** Every identity sheets are spread over (the first is `serviceAccount`); one on embedded defaults. */
  serviceAccounts: ServiceAccount[];
  oauth: { clientId: string; clientSecret: string; issuer: string };
  /** The Google Picker, loaded in the owner's browser to choose a sheet (drive.file). */
  picker: { scriptUrl: string; appId: string; developerKey: string };
  requestTimeoutMs: number;
  /** No retry starts later than this after the first attempt. */
  retryBudgetMs: number;
}

/** Whether the settings name an own service account (else the embedded one is generated). */
export const hasOwnServiceAccount = (env: Env) =>
  Boolean(env.GOOGLE_SERVICE_ACCOUNT_JSON || env.GOOGLE_SERVICE_ACCOUNTS);

export function googleConfig(env: Env, generated: GeneratedSecrets | undefined): GoogleConfig {
  const realGoogle = Boolean(hasOwnServiceAccount(env) && env.GOOGLE_CLIENT_ID) && !env.GOOGLE_API_ROOT_URL;
  const emulatorUrl = env.GOOGLE_API_ROOT_URL ?? `http://127.0.0.1:${env.GOOGLE_EMULATOR_PORT}`;
  // Next.js reports every loopback host as "localhost" (NextURL), so a 127.0.0.1 base URL would
  // send sign-in redirects to another origin than the one holding the cookies.
  const oauthIssuer =
    env.GOOGLE_OAUTH_ISSUER ?? (realGoogle ? "https://accounts.google.com" : emulatorUrl.replace(/\/$/, ""));
  // Emulated Google answers token requests at its issuer, as Google does at oauth2.googleapis.com.
  const emulatedTokenUrl = realGoogle ? undefined : `${oauthIssuer}/token`;
  const serviceAccounts = serviceAccountsOf(env, emulatedTokenUrl, generated);
  return {
    emulated: !realGoogle,
    rootUrl: realGoogle ? undefined : emulatorUrl.replace(/\/$/, ""),
    apiKey: env.GOOGLE_API_KEY ?? EMULATOR_DEFAULTS.apiKey,
    serviceAccount: serviceAccounts[0]!,
    serviceAccounts,
    oauth: {
      clientId: env.GOOGLE_CLIENT_ID ?? EMULATOR_DEFAULTS.clientId,
      clientSecret: env.GOOGLE_CLIENT_SECRET ?? EMULATOR_DEFAULTS.clientSecret,
      issuer: oauthIssuer,
    },
    picker: {
      scriptUrl:
        env.GOOGLE_PICKER_SCRIPT_URL ??
        (realGoogle ? "https://apis.google.com/js/api.js" : `${emulatorUrl.replace(/\/$/, "")}/js/api.js`),
      appId: env.GOOGLE_CLOUD_PROJECT_NUMBER ?? (realGoogle ? "" : EMULATOR_DEFAULTS.projectNumber),
      developerKey: env.GOOGLE_PICKER_API_KEY ?? env.GOOGLE_API_KEY ?? EMULATOR_DEFAULTS.apiKey,
    },
    requestTimeoutMs: env.GOOGLE_REQUEST_TIMEOUT_MS,
    retryBudgetMs: env.GOOGLE_RETRY_BUDGET_MS,
  };
}
