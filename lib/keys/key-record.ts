// What the hot path needs to know about an API key, cached in the limit store and rewritten on
// every change (create, permissions, revoke), so a revocation reaches every instance at once.
import type { ApiKey } from "@/db/schema";
import { databaseScope } from "@/db/queries/database";
import { getLimitStore, type Versioned } from "@/lib/store/store";
import { DEFAULT_VISITOR_LIMIT } from "./browser";
import { DEFAULT_FORM_VISITOR_LIMIT, type UnknownFields } from "./form";
import { isPermission, type Permission } from "./permissions";

export interface KeyRecord extends Versioned {
  id: string;
  sheetId: string;
  userId: string;
  hash: string;
  permissions: Permission[];
  revoked: boolean;
  /** The sheet was claimed by an account that proved edit access (absent in older records). */
  claimed?: boolean;
  /** Present on publishable (browser) keys only; secret keys' records stay as they were. */
  browser?: BrowserScope;
  /** Present on form keys only: the key appends rows to this one tab and does nothing else. */
  form?: FormScope;
  /** Present when the owner allows the key to read formulas (`?formulas=true`). */
  formulas?: true;
  /** Present when the owner made the key's writes refuse formulas (lib/sheets/write/formula-guard.ts). */
  refusesFormulas?: true;
}

/** What a publishable key may do beyond Read: from which origins, which tabs and columns, how often per visitor. */
export interface BrowserScope {
  origins: string[];
  /** Absent: every tab. */
  tabs?: string[];
  /** Absent: every column. */
  columns?: string[];
  visitorLimit: number;
}

/** What a form key may do: append to one tab, from which origins, sending browsers where, how often per visitor. */
export interface FormScope {
  tab: string;
  origins: string[];
  redirects: string[];
  /** Absent: every column of the tab. */
  fields?: string[];
  unknownFields: UnknownFields;
  visitorLimit: number;
  message?: string;
}

/** Remembered for hashes no key has, so guessing keys costs no database queries. */
export interface MissingKey extends Versioned {
  missing: true;
}

export const KEY_RECORD_TTL_SECONDS = 600;
export const MISSING_KEY_TTL_SECONDS = 60;
/** Named by the database the record copies, as sheet records are (sheet-record.ts). */
export const keyRecordKey = async (hash: string) => `sheetapi:key:${await databaseScope()}:${hash}`;

export function toKeyRecord(row: ApiKey): KeyRecord {
  return {
    v: row.version,
    id: row.id,
    sheetId: row.sheetId,
    userId: row.userId,
    hash: row.hash,
    permissions: row.permissions.filter(isPermission),
    revoked: row.revokedAt !== null,
    claimed: row.claimedAt !== null,
    ...(row.kind === "publishable" ? { browser: browserScope(row) } : {}),
    ...(row.kind === "form" ? { form: formScope(row) } : {}),
    ...(row.readFormulas ? { formulas: true as const } : {}),
    ...(row.refuseFormulas ? { refusesFormulas: true as const } : {}),
  };
}

function browserScope(row: ApiKey): BrowserScope {
  return {
    origins: row.allowedOrigins,
    ...(row.allowedTabs ? { tabs: row.allowedTabs } : {}),
    ...(row.allowedColumns ? { columns: row.allowedColumns } : {}),
    visitorLimit: row.visitorLimit ?? DEFAULT_VISITOR_LIMIT,
  };
}

function formScope(row: ApiKey): FormScope {
  return {
    tab: row.formTab ?? "",
    origins: row.allowedOrigins,
    redirects: row.allowedRedirects,
    ...(row.formFields ? { fields: row.formFields } : {}),
    unknownFields: row.unknownFields === "refuse" ? "refuse" : "drop",
    visitorLimit: row.visitorLimit ?? DEFAULT_FORM_VISITOR_LIMIT,
    ...(row.thankYouMessage ? { message: row.thankYouMessage } : {}),
  };
}

/**
 * Writes a changed key to the store. Throws when the store cannot be written: a revocation
 * that did not reach the store must not be reported as done.
 */
export async function publishKey(row: ApiKey): Promise<void> {
  await getLimitStore().setIfNewer(await keyRecordKey(row.hash), toKeyRecord(row), KEY_RECORD_TTL_SECONDS);
}
