// Demo mode (DECISIONS 23): a demo account on the Business plan, the emulator's demo spreadsheet
// registered as writable, and one key with all four permissions. Safe to run at every start.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { findApiKeyByHash, insertApiKey } from "@/db/queries/api-keys";
import { getSheet, insertSheet, recordAccessCheck } from "@/db/queries/sheets";
import { createUser, getUserByEmail, linkSignInAccount } from "@/db/queries/users";
import type { AppConfig } from "@/lib/env";
import { generatedSecrets } from "@/lib/env/secrets";
import { EMULATOR_DEFAULTS } from "@/lib/emulator-defaults";
import { displayPrefix, generateApiKey, hashApiKey } from "@/lib/api-key";
import { newId } from "@/lib/keys/ids";
import { PERMISSIONS } from "@/lib/keys/permissions";

export const DEMO_EMAIL = "demo@sheetapi.local";
export const DEMO_SPREADSHEET_ID = EMULATOR_DEFAULTS.demoSpreadsheetId;
export const DEMO_TAB = "Products";

export interface DemoAccount {
  apiKey: string;
  sheetId: string;
  tab: string;
  /** The Google account that signs in to the demo account in the dashboard, when there is one. */
  signInEmail?: string;
}

/** The demo key: DEMO_API_KEY, or one generated once and kept beside the other generated secrets. */
function demoKeyValue(cfg: AppConfig): string {
  if (cfg.demo.apiKey) return cfg.demo.apiKey;
  const secrets = generatedSecrets(cfg.dataDir);
  if (secrets.demoApiKey) return secrets.demoApiKey;
  const key = generateApiKey();
  writeFileSync(join(cfg.dataDir, "secrets.json"), JSON.stringify({ ...secrets, demoApiKey: key }, null, 2), {
    mode: 0o600,
  });
  return key;
}

/**
 * `googleSubject`: the Google subject id that signs in as the demo account. Given only when Google
 * is emulated (any e-mail can sign in there): sign-in finds accounts by that id, never by e-mail,
 * so without the link the demo account could not be reached from the dashboard.
 */
export async function seedDemo(
  cfg: AppConfig,
  { googleSubject }: { googleSubject?: string } = {},
): Promise<DemoAccount> {
  const user =
    (await getUserByEmail({ email: DEMO_EMAIL })) ??
    (await createUser({ email: DEMO_EMAIL, name: "Demo Owner", plan: "business" }));
  if (googleSubject)
    await linkSignInAccount({ userId: user.id, type: "oidc", provider: "google", providerAccountId: googleSubject });
  const sheet = await getSheet({ id: DEMO_SPREADSHEET_ID });
  if (sheet && sheet.userId !== user.id) {
    throw new Error(`The demo spreadsheet ${DEMO_SPREADSHEET_ID} is registered to another account.`);
  }
  if (!sheet) {
    // Seeded, not proven: the demo sheet is the service's own, so it counts as edit proof, no
    // visitor can claim it, and there is no person's access to re-check (DECISIONS 18).
    await insertSheet({
      id: DEMO_SPREADSHEET_ID,
      userId: user.id,
      name: "Acme Store",
      access: "service_account",
      writable: true,
      proof: "edit",
      accessState: "service",
    });
  } else if (sheet.accessState !== "service") {
    // Seeded before access was re-checked.
    await recordAccessCheck({ id: sheet.id, userId: user.id, state: "service", at: new Date() });
  }
  const apiKey = demoKeyValue(cfg);
  const hash = hashApiKey(apiKey);
  if (!(await findApiKeyByHash({ hash }))) {
    await insertApiKey({
      id: newId("key"),
      sheetId: DEMO_SPREADSHEET_ID,
      userId: user.id,
      name: "Demo key",
      hash,
      displayPrefix: displayPrefix(apiKey),
      permissions: [...PERMISSIONS],
    });
  }
  return { apiKey, sheetId: DEMO_SPREADSHEET_ID, tab: DEMO_TAB, signInEmail: googleSubject ? DEMO_EMAIL : undefined };
}
