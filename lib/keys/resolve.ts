// The hot path of every key-authenticated request: the key's record and the sheet's record in
// one round trip to the limit store; Postgres only on a miss (or when the store is down).
import { findApiKeyByHash } from "@/db/queries/api-keys";
import { getSheet } from "@/db/queries/sheets";
import { getLimitStore } from "@/lib/store/store";
import { dataVersionKey } from "@/lib/sheets/read/tab-cache";
import { SHEET_RECORD_TTL_SECONDS, sheetRecordKey, toSheetRecord, type SheetRecord } from "@/lib/sheets/sheet-record";
import {
  KEY_RECORD_TTL_SECONDS,
  keyRecordKey,
  MISSING_KEY_TTL_SECONDS,
  toKeyRecord,
  type KeyRecord,
  type MissingKey,
} from "./key-record";
import { errorFields, log } from "@/lib/log";

export interface Resolved {
  key: KeyRecord | null;
  /** The sheet of the path, loaded only when the key belongs to it. */
  sheet: SheetRecord | null;
  /** The data version of `tab` for the tab cache; undefined when the store is unreachable or no tab was asked for. */
  dataVersion: number | undefined;
}

/**
 * `sheetId` undefined: the key alone (account-level routes). `skipStore`: the caller already
 * knows the store is unreachable, so no second call waits for its timeout. `tab`: the tab whose
 * data version to read in the same round trip.
 */
export async function resolveKeyAndSheet(
  hash: string,
  sheetId: string | undefined,
  { skipStore = false, tab }: { skipStore?: boolean; tab?: string } = {},
): Promise<Resolved> {
  const store = getLimitStore();
  let cachedKey: KeyRecord | MissingKey | null = null;
  let cachedSheet: SheetRecord | null = null;
  let dataVersion: number | undefined;
  let storeUp = !skipStore;
  if (storeUp) {
    // Outside the try: the names come from the database (its id), and its failure is no store outage.
    const names =
      sheetId === undefined
        ? [await keyRecordKey(hash)]
        : [
            await keyRecordKey(hash),
            await sheetRecordKey(sheetId),
            ...(tab === undefined ? [] : [dataVersionKey(sheetId, tab)]),
          ];
    try {
      const [k, s, v] = await store.mget<unknown>(names);
      cachedKey = k as KeyRecord | MissingKey | null;
      cachedSheet = (s ?? null) as SheetRecord | null;
      if (sheetId !== undefined && tab !== undefined) dataVersion = Number(v ?? 0);
    } catch (err) {
      // Postgres holds the truth: without the store every request reads it, slower but correct.
      storeUp = false;
      log.warn({ ...errorFields(err) }, "keys: limit store unavailable, reading keys from the database");
    }
  }
  const fill = (key: string, value: KeyRecord | MissingKey, ttl: number) =>
    storeUp ? store.setIfNewer(key, value, ttl).catch(() => undefined) : undefined;

  let key = cachedKey;
  if (!key) {
    const row = await findApiKeyByHash({ hash });
    key = row ? toKeyRecord(row) : { v: 0, missing: true };
    await fill(await keyRecordKey(hash), key, row ? KEY_RECORD_TTL_SECONDS : MISSING_KEY_TTL_SECONDS);
  }
  if ("missing" in key) return { key: null, sheet: null, dataVersion };
  if (sheetId === undefined || key.sheetId !== sheetId) return { key, sheet: null, dataVersion };

  return { key, sheet: cachedSheet ?? (await loadSheetRecord(sheetId, { writeBack: storeUp })), dataVersion };
}

/** A sheet's record from Postgres when the store has none, written back for the next request. */
export async function loadSheetRecord(sheetId: string, { writeBack = true } = {}): Promise<SheetRecord | null> {
  const row = await getSheet({ id: sheetId });
  if (!row) return null;
  const sheet = toSheetRecord(row);
  if (writeBack)
    await getLimitStore()
      .setIfNewer(await sheetRecordKey(sheetId), sheet, SHEET_RECORD_TTL_SECONDS)
      .catch(() => undefined);
  return sheet;
}
