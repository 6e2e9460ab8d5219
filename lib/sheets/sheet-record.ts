// What the hot path needs to know about a sheet, cached in the limit store so a request touches
// neither Postgres nor Google when its data is cached. Written through on every change.
import type { AccessState, Sheet, SheetAccess } from "@/db/schema";
import { databaseScope } from "@/db/queries/database";
import { getLimitStore, type Versioned } from "@/lib/store/store";
import { errorFields, log } from "@/lib/log";

export interface SheetRecord extends Versioned {
  id: string;
  userId: string;
  name: string;
  access: SheetAccess;
  writable: boolean;
  needsReauth: boolean;
  /** Already encrypted (AES-256-GCM); the store never sees a usable token. */
  refreshTokenCiphertext: string | null;
  /** The service account the sheet is shared with; null or absent (records kept before it existed): the first configured. */
  serviceAccount?: string | null;
  cacheTtlSeconds: number;
  maxStaleSeconds: number;
  /** Written strings are parsed as typed in the Sheets UI (value-input.ts); absent in records kept before it existed: RAW. */
  userEnteredWrites?: boolean;
  /** When the durable schema copy was written, Unix ms. */
  schemaUpdatedAt: number | null;
  /** The registrant's access as Google last confirmed it; absent in older records: current. */
  accessState?: AccessState;
  /** When it was last confirmed, Unix ms; absent in older records: the check is due. */
  accessCheckedAt?: number;
  /** Suspended because access was never proven (registered before proof existed, grace over), not because it lapsed. */
  accessNeverProven?: boolean;
}

export const SHEET_RECORD_TTL_SECONDS = 600;
// Named by the database the record copies: deployments sharing one Redis (staging beside
// production, a test run beside a drill) never read each other's records, whose versions
// would otherwise compete (setIfNewer keeps the higher one).
export const sheetRecordKey = async (id: string) => `sheetapi:sheet:${await databaseScope()}:${id}`;

export function toSheetRecord(row: Sheet): SheetRecord {
  return {
    v: row.version,
    id: row.id,
    userId: row.userId,
    name: row.name,
    access: row.access,
    writable: row.writable,
    needsReauth: row.needsReauth,
    refreshTokenCiphertext: row.refreshTokenCiphertext,
    serviceAccount: row.serviceAccount,
    cacheTtlSeconds: row.cacheTtlSeconds,
    maxStaleSeconds: row.maxStaleSeconds,
    userEnteredWrites: row.userEnteredWrites,
    schemaUpdatedAt: row.schemaUpdatedAt?.getTime() ?? null,
    accessState: row.accessState,
    accessCheckedAt: row.accessCheckedAt.getTime(),
    ...(row.accessState === "suspended" && row.accessUnprovenSince ? { accessNeverProven: true } : {}),
  };
}

/** Writes a changed row to the store, so every instance sees the change on its next request. */
export async function publishSheet(row: Sheet | undefined): Promise<void> {
  if (!row) return;
  await getLimitStore().setIfNewer(await sheetRecordKey(row.id), toSheetRecord(row), SHEET_RECORD_TTL_SECONDS);
}

/** For changes whose propagation is not safety-critical: a failure leaves the cached copy to expire. */
export async function publishSheetQuietly(row: Sheet | undefined): Promise<void> {
  await publishSheet(row).catch((err: unknown) =>
    log.warn({ sheet: row?.id, ...errorFields(err) }, "sheets: could not publish the sheet record"),
  );
}
