// Key management from the dashboard: create, change permissions, revoke. Every function is
// scoped to the signed-in account: another account's sheet or key is simply not found.
import {
  getApiKeyForUser,
  listApiKeys,
  revokeApiKey,
  setApiKeyPermissions,
  setApiKeyReadFormulas,
  setBrowserKeySettings,
} from "@/db/queries/api-keys";
import { getSheetForUser } from "@/db/queries/sheets";
import type { ApiKey } from "@/db/schema";
import { ApiError } from "@/lib/errors";
import type { KeyKind } from "@/lib/api-key";
import { browserKeySettings, checkPublishablePermissions, type BrowserKeySettings } from "./browser";
import { createApiKey } from "./create";
import { publishKey, toKeyRecord } from "./key-record";
import { settleKeyStamps } from "@/lib/usage/last-used";
import { PERMISSIONS, type Permission } from "./permissions";
import { errorFields, log } from "@/lib/log";

/** What the dashboard may see of a key: never its hash. */
export interface KeySummary {
  id: string;
  name: string;
  displayPrefix: string;
  permissions: Permission[];
  kind: KeyKind;
  /** Publishable keys only; null for secret keys. */
  browser: BrowserKeySettings | null;
  /** The owner allows it to read formulas (`?formulas=true`). */
  readFormulas: boolean;
  /** Its writes refuse values Google would enter as formulas (USER_ENTERED writes). */
  refuseFormulas: boolean;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

export function summarizeKey(key: ApiKey): KeySummary {
  return {
    id: key.id,
    name: key.name,
    displayPrefix: key.displayPrefix,
    permissions: PERMISSIONS.filter((p) => key.permissions.includes(p)),
    kind: key.kind === "publishable" || key.kind === "form" ? key.kind : "secret",
    browser:
      key.kind === "publishable"
        ? {
            origins: key.allowedOrigins,
            tabs: key.allowedTabs,
            columns: key.allowedColumns,
            visitorLimit: toKeyRecord(key).browser!.visitorLimit,
          }
        : null,
    readFormulas: key.readFormulas,
    refuseFormulas: key.refuseFormulas,
    createdAt: key.createdAt.toISOString(),
    lastUsedAt: key.lastUsedAt?.toISOString() ?? null,
    revokedAt: key.revokedAt?.toISOString() ?? null,
  };
}

const formKeyHasNoPermissions = () =>
  new ApiError("validation_error", "A form key only appends rows to its tab: it has no permissions to change.");
const noSuchKey = () => new ApiError("not_found", "No such API key in your account.");

export async function ownedSheet(userId: string, sheetId: string) {
  const sheet = await getSheetForUser({ id: sheetId, userId });
  if (!sheet) throw new ApiError("not_found", "No such sheet in your account.");
  return sheet;
}

export async function listKeysForSheet({
  userId,
  sheetId,
}: {
  userId: string;
  sheetId: string;
}): Promise<KeySummary[]> {
  await ownedSheet(userId, sheetId);
  // "Last used" as of now: the stamps still held in memory or in the store's ledger first.
  await settleKeyStamps();
  // Form keys have a section of their own (lib/keys/form-keys.ts).
  return (await listApiKeys({ userId, sheetId })).filter((k) => k.kind !== "form").map(summarizeKey);
}

/** What the owner sets on a browser key; `visitorLimit` defaults to DEFAULT_VISITOR_LIMIT. */
export type BrowserKeyInput = Parameters<typeof browserKeySettings>[0];

/** `browser` given: a publishable key, which reads only (other permissions are refused). */
export async function createKeyForSheet(input: {
  userId: string;
  sheetId: string;
  name: string;
  permissions: Permission[];
  browser?: BrowserKeyInput;
  refuseFormulas?: boolean;
}) {
  const browser = input.browser ? browserKeySettings(input.browser) : undefined;
  if (browser) checkPublishablePermissions(input.permissions);
  await ownedSheet(input.userId, input.sheetId);
  const { key, value } = await createApiKey({ ...input, browser });
  return { key: summarizeKey(key), value };
}

export async function propagate(row: ApiKey, what: string): Promise<void> {
  try {
    await publishKey(row);
  } catch (err) {
    log.error(
      { key_id: row.id, change: what, ...errorFields(err) },
      "keys: change saved but not propagated to the store",
    );
    throw new ApiError(
      "service_unavailable",
      `The ${what} is saved, but not every server could be told yet. Try again in a moment to make it take effect everywhere at once.`,
    );
  }
}

export async function updateKeyPermissions({
  userId,
  keyId,
  permissions,
}: {
  userId: string;
  keyId: string;
  permissions: Permission[];
}): Promise<KeySummary> {
  const existing = await getApiKeyForUser({ userId, id: keyId });
  if (!existing) throw noSuchKey();
  if (existing.revokedAt)
    throw new ApiError("validation_error", "This key is revoked; its permissions can no longer change.");
  if (existing.kind === "form") throw formKeyHasNoPermissions();
  if (existing.kind === "publishable") checkPublishablePermissions(permissions);
  const row = await setApiKeyPermissions({ userId, id: keyId, permissions });
  if (!row) throw new ApiError("conflict", "This key was revoked meanwhile.");
  await propagate(row, "permission change");
  return summarizeKey(row);
}

/** New origins, tabs, columns or visitor limit for a browser key: every instance applies them from the next request. */
export async function updateBrowserKey({
  userId,
  keyId,
  browser,
}: {
  userId: string;
  keyId: string;
  browser: BrowserKeyInput;
}): Promise<KeySummary> {
  const settings = browserKeySettings(browser);
  const existing = await getApiKeyForUser({ userId, id: keyId });
  if (!existing) throw noSuchKey();
  if (existing.kind !== "publishable")
    throw new ApiError(
      "validation_error",
      "Only browser (publishable) keys have origins, tabs and columns; a secret key reads everything its permissions allow.",
    );
  if (existing.revokedAt)
    throw new ApiError("validation_error", "This key is revoked; its settings can no longer change.");
  const row = await setBrowserKeySettings({ userId, id: keyId, settings });
  if (!row) throw new ApiError("conflict", "This key was revoked meanwhile.");
  await propagate(row, "browser key change");
  return summarizeKey(row);
}

/** Allows or stops a key's reading of formulas: every instance applies it from the next request. */
export async function updateKeyFormulas({
  userId,
  keyId,
  readFormulas,
}: {
  userId: string;
  keyId: string;
  readFormulas: boolean;
}): Promise<KeySummary> {
  const existing = await getApiKeyForUser({ userId, id: keyId });
  if (!existing) throw noSuchKey();
  if (existing.kind === "form") throw formKeyHasNoPermissions();
  if (existing.revokedAt)
    throw new ApiError("validation_error", "This key is revoked; its settings can no longer change.");
  const row = await setApiKeyReadFormulas({ userId, id: keyId, readFormulas });
  if (!row) throw new ApiError("conflict", "This key was revoked meanwhile.");
  await propagate(row, "formula reading change");
  return summarizeKey(row);
}

export async function revokeKey({ userId, keyId }: { userId: string; keyId: string }): Promise<KeySummary> {
  const row = (await revokeApiKey({ userId, id: keyId })) ?? (await getApiKeyForUser({ userId, id: keyId }));
  if (!row) throw noSuchKey();
  // Published again when already revoked too: a retry after a failed propagation repairs it.
  await propagate(row, "revocation");
  return summarizeKey(row);
}
