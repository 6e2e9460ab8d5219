// The hot path of every key-authenticated request: the key's record and the sheet's record in
// one round trip to the limit store; Postgres only on a miss (or when the store is down).
import { findApiKeyByHash } from "@/db/queries/api-keys";
import { getSheet } from "@/db/queries/sheets";
import { getLimitStore } from "@/lib/limits/store";
import { SHEET_RECORD_TTL_SECONDS, sheetRecordKey, toSheetRecord, type SheetRecord } from "@/lib/sheets/sheet-record";
import { KEY_RECORD_TTL_SECONDS, keyRecordKey, MISSING_KEY_TTL_SECONDS, toKeyRecord, type KeyRecord, type MissingKey } from "./key-record";

export interface Resolved {
  key: KeyRecord | null;
  /** The sheet of the path, loaded only when the key belongs to it. */
  sheet: SheetRecord | null;
}

export async function resolveKeyAndSheet(hash: string, sheetId: string): Promise<Resolved> {
  const store = getLimitStore();
  let cachedKey: KeyRecord | MissingKey | null = null;
  let cachedSheet: SheetRecord | null = null;
  let storeUp = true;
  try {
    [cachedKey, cachedSheet] = (await store.mget<KeyRecord | MissingKey | SheetRecord>([keyRecordKey(hash), sheetRecordKey(sheetId)])) as [
      KeyRecord | MissingKey | null,
      SheetRecord | null,
    ];
  } catch (err) {
    // Postgres holds the truth: without the store every request reads it, slower but correct.
    storeUp = false;
    console.warn(`[keys] limit store unavailable, reading keys from the database: ${(err as Error).message}`);
  }
  const fill = (key: string, value: KeyRecord | MissingKey | SheetRecord, ttl: number) =>
    storeUp ? store.setIfNewer(key, value, ttl).catch(() => undefined) : undefined;

  let key = cachedKey;
  if (!key) {
    const row = await findApiKeyByHash({ hash });
    key = row ? toKeyRecord(row) : { v: 0, missing: true };
    await fill(keyRecordKey(hash), key, row ? KEY_RECORD_TTL_SECONDS : MISSING_KEY_TTL_SECONDS);
  }
  if ("missing" in key) return { key: null, sheet: null };
  if (key.sheetId !== sheetId) return { key, sheet: null };

  let sheet = cachedSheet;
  if (!sheet) {
    const row = await getSheet({ id: sheetId });
    sheet = row ? toSheetRecord(row) : null;
    if (sheet) await fill(sheetRecordKey(sheetId), sheet, SHEET_RECORD_TTL_SECONDS);
  }
  return { key, sheet };
}
