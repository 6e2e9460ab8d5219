// Tab values cached in process (DECISIONS 12): each entry lives for the sheet's TTL and only
// while the sheet's data version in the limit store is the one it was read at, so a write
// through any instance invalidates it everywhere. Concurrent misses for a tab share one call.
import { ApiError } from "@/lib/http/errors";
import { getLimitStore } from "@/lib/limits/store";
import { withGoogle } from "./google-access";
import { quoteTab } from "./read-model";
import { parseTabValues, type TabData } from "./rows";
import type { SheetRecord } from "./sheet-record";
import type { TabModel } from "./tab-model";

export type CacheStatus = "HIT" | "MISS";

interface Entry {
  data: TabData;
  fetchedAt: number;
  version: number | undefined;
}

const MAX_ENTRIES = 500;
const VERSION_TTL_SECONDS = 7 * 24 * 3600;
const entries = new Map<string, Entry>();
const inflight = new Map<string, Promise<Entry>>();

export const dataVersionKey = (sheetId: string) => `sheetapi:data:${sheetId}`;
const entryKey = (sheetId: string, tab: string) => `${sheetId}\u0000${tab}`;

type TabSheet = Pick<SheetRecord, "id" | "access" | "refreshTokenCiphertext" | "cacheTtlSeconds">;

/** Reads a tab from Google now, bypassing the cache. */
export async function fetchTab(sheet: TabSheet, model: TabModel): Promise<TabData> {
  try {
    const { data } = await withGoogle(sheet, (c) =>
      c.sheets.spreadsheets.values.get({
        spreadsheetId: sheet.id,
        range: quoteTab(model.name),
        valueRenderOption: "FORMATTED_VALUE",
        majorDimension: "ROWS",
      }),
    );
    return parseTabValues(model.name, (data.values ?? []) as string[][], model);
  } catch (err) {
    if (err instanceof ApiError && err.code === "validation_error" && /Unable to parse range/.test(err.message)) {
      throw new ApiError("not_found", `The tab "${model.name}" no longer exists in the spreadsheet; refresh the schema.`);
    }
    throw err;
  }
}

/**
 * A tab's rows from cache when current, else from Google. `version` is the sheet's data version
 * read from the store with the key (undefined when the store is unreachable: TTL alone decides).
 */
export async function readTab(sheet: TabSheet, model: TabModel, version: number | undefined, { fresh = false } = {}): Promise<{ data: TabData; cache: CacheStatus }> {
  const key = entryKey(sheet.id, model.name);
  const hit = entries.get(key);
  if (!fresh && hit && Date.now() - hit.fetchedAt < sheet.cacheTtlSeconds * 1000 && hit.version === version) {
    return { data: hit.data, cache: "HIT" };
  }
  const flightKey = `${key}\u0000${version ?? "?"}`;
  let flight = inflight.get(flightKey);
  if (!flight) {
    flight = fetchTab(sheet, model)
      .then((data) => {
        const entry = { data, fetchedAt: Date.now(), version };
        entries.delete(key);
        entries.set(key, entry);
        if (entries.size > MAX_ENTRIES) entries.delete(entries.keys().next().value!);
        return entry;
      })
      .finally(() => inflight.delete(flightKey));
    inflight.set(flightKey, flight);
  }
  return { data: (await flight).data, cache: "MISS" };
}

/** After a write or a schema refresh: every instance's copies of the sheet's tabs are dropped. */
export async function invalidateSheetData(sheetId: string): Promise<void> {
  for (const key of entries.keys()) if (key.startsWith(`${sheetId}\u0000`)) entries.delete(key);
  await getLimitStore().incr(dataVersionKey(sheetId), VERSION_TTL_SECONDS);
}
