// Tab values cached in process (DECISIONS 12): a copy is served while its data version is the
// tab's, it is younger than the TTL and Drive reported no change writes do not explain; the last
// good copy serves STALE while Google fails (README.md).
import { TOO_SLOW, withinDeadline } from "@/lib/deadline";
import { ApiError } from "@/lib/errors";
import { getLimitStore } from "@/lib/store/store";
import { changeEpoch, knownEpoch, noteConfirmedWrite, sheetWritesKey } from "./change-check";
import { dateColumnsOf, fetchSerials, withSerials, type Serials } from "./date-values";
import { fingerprintOf, recordRead, verifiedElsewhere } from "./fleet-reads";
import { withGoogle } from "@/lib/sheets/sheet-access";
import { quoteTab } from "@/lib/sheets/read/read-model";
import { parseTabValues, type TabData } from "@/lib/sheets/values/rows";
import { countRead } from "@/lib/usage/sheet-stats";
import type { SheetRecord } from "@/lib/sheets/sheet-record";
import type { TabModel } from "@/lib/sheets/values/tab-model";
import { log } from "@/lib/log";
import { noteTabRead } from "@/lib/webhooks/changes";
import type { CacheStatus } from "@/lib/usage/sheet-stats";

export type { CacheStatus } from "@/lib/usage/sheet-stats";

interface Entry {
  model: TabModel;
  data: TabData;
  fetchedAt: number;
  version: number | undefined;
  /** The sheet's change epoch as known just before the read. */
  epoch: number;
  /** A digest of the values read (fleet-reads.ts). */
  fingerprint: string;
}

const MAX_ENTRIES = 500;
/** A version no request carries: the entry must be read again (and is never served stale). */
const OUT_OF_DATE = -1;
const VERSION_TTL_SECONDS = 7 * 24 * 3600;
const entries = new Map<string, Entry>();
const inflight = new Map<string, Promise<Entry>>();
// When each shared read began: a read joining it waits only what is left of the STALE wait.
const flightStarted = new WeakMap<Promise<Entry>, number>();

/** The store key of a tab's data version. Sheet ids never hold a colon; tab names may. */
export const dataVersionKey = (sheetId: string, tab: string) => `sheetapi:tabdata:${sheetId}:${tab}`;
const entryKey = (sheetId: string, tab: string) => `${sheetId}\u0000${tab}`;

/** A tab's data version as the store has it now; undefined without the store (the cache then falls back on its TTL). */
export async function tabDataVersion(sheetId: string, tab: string): Promise<number | undefined> {
  try {
    const [v] = await getLimitStore().mget<unknown>([dataVersionKey(sheetId, tab)]);
    return Number(v ?? 0);
  } catch {
    return undefined;
  }
}

type TabSheet = Pick<SheetRecord, "id" | "access" | "refreshTokenCiphertext" | "cacheTtlSeconds"> &
  Partial<Pick<SheetRecord, "maxStaleSeconds" | "userId">>;

/**
 * Reads a tab from Google now, bypassing the cache, before a write. `dates`: with its date columns' serial
 * numbers, read beside the values (a write that finds its rows by date: one more call, no more wait).
 */
export async function fetchTab(sheet: TabSheet, model: TabModel, { dates = false } = {}): Promise<TabData> {
  try {
    if (!dates || !dateColumnsOf(model).length) return await fetchValues(sheet, model);
    const [data, serials] = await Promise.all([fetchValues(sheet, model), fetchSerials(sheet, model)]);
    return withSerials(data, serials);
  } catch (err) {
    throw nothingWritten(err);
  }
}

/**
 * A failure before a write sent anything: known to have written nothing (DECISIONS 7a), and said
 * so. A timeout is a 503 then, not a 504: a write's 504 means its outcome is unknown.
 */
export function nothingWritten(err: unknown): unknown {
  if (!(err instanceof ApiError) || err.status < 500) return err;
  const code = err.code === "gateway_timeout" ? "service_unavailable" : err.code;
  return new ApiError(
    code,
    `${err.message} Nothing was written: the tab could not be read before the write, so the request can be sent again as it is.`,
    err.extra,
    err.headers,
  );
}

async function fetchValues(sheet: TabSheet, model: TabModel): Promise<TabData> {
  try {
    const { data } = await withGoogle(sheet, "spreadsheets.values.get", (c) =>
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
      throw new ApiError(
        "not_found",
        `The tab "${model.name}" no longer exists in the spreadsheet; refresh the schema.`,
      );
    }
    throw err;
  }
}

// Cache fills of several tabs of one sheet that start within BATCH_WINDOW_MS share one
// values.batchGet: one Google call instead of one per tab.
const BATCH_WINDOW_MS = 2;
interface Waiting {
  model: TabModel;
  resolve: (data: TabData) => void;
  reject: (err: unknown) => void;
}
const batches = new Map<string, { sheet: TabSheet; tabs: Waiting[] }>();

function fetchCoalesced(sheet: TabSheet, model: TabModel): Promise<TabData> {
  return new Promise((resolve, reject) => {
    let batch = batches.get(sheet.id);
    if (!batch) {
      batches.set(sheet.id, (batch = { sheet, tabs: [] }));
      setTimeout(() => void runBatch(sheet.id), BATCH_WINDOW_MS);
    }
    batch.tabs.push({ model, resolve, reject });
  });
}

async function runBatch(sheetId: string): Promise<void> {
  const { sheet, tabs } = batches.get(sheetId)!;
  batches.delete(sheetId);
  const oneByOne = () => tabs.forEach((w) => fetchValues(sheet, w.model).then(w.resolve, w.reject));
  if (tabs.length === 1) return oneByOne();
  try {
    const { data } = await withGoogle(sheet, "spreadsheets.values.batchGet", (c) =>
      c.sheets.spreadsheets.values.batchGet({
        spreadsheetId: sheet.id,
        ranges: tabs.map((w) => quoteTab(w.model.name)),
        valueRenderOption: "FORMATTED_VALUE",
        majorDimension: "ROWS",
      }),
    );
    tabs.forEach((w, i) =>
      w.resolve(parseTabValues(w.model.name, (data.valueRanges?.[i]?.values ?? []) as string[][], w.model)),
    );
  } catch (err) {
    // A tab deleted in the sheet fails the whole batch: one by one, only that tab fails.
    if (err instanceof ApiError && err.code === "validation_error") return oneByOne();
    tabs.forEach((w) => w.reject(err));
  }
}

/** Why a cached copy cannot be served: "changed" when Drive reported a change of the file. */
async function staleness(sheet: TabSheet, hit: Entry, force: boolean): Promise<"current" | "expired" | "changed"> {
  // No-cache asks for the sheet as it is: only a read of the sheet itself can say (Drive's time lags).
  if (force) return "expired";
  const ttlMs = sheet.cacheTtlSeconds * 1000;
  if (Date.now() - hit.fetchedAt >= ttlMs) {
    const readAt = await verifiedElsewhere(sheet.id, hit.model.name, hit, ttlMs);
    if (readAt === undefined) return "expired";
    hit.fetchedAt = readAt;
    hit.data = { ...hit.data, readAt };
  }
  // Within the TTL, a change Drive already reports is shown at once; its silence proves nothing.
  return (await changeEpoch(sheet)) === hit.epoch ? "current" : "changed";
}

/**
 * Drive reported a change of the file, which may be in any tab: the sheet's other cached tabs
 * read before it are read again together, in the same batchGet as this one, instead of one call
 * each as their readers come by. Each keeps the version it was read at (a later write to it shows
 * as a newer version, and reads it once more).
 */
function refreshSiblings(sheet: TabSheet, model: TabModel, epoch: number): void {
  for (const [key, entry] of entries) {
    if (!key.startsWith(`${sheet.id}\u0000`) || entry.model.name === model.name) continue;
    if (entry.epoch === epoch || entry.version === OUT_OF_DATE) continue;
    load(sheet, entry.model, entry.version).catch(() => undefined);
  }
}

/** Google said 429 or was unreachable: the case for serving the last good copy. */
const googleUnavailable = (err: unknown) =>
  err instanceof ApiError && ["service_unavailable", "gateway_timeout", "bad_gateway"].includes(err.code);

/** The serial numbers could not be read: dates are read from their display meanwhile. */
const NO_SERIALS: unique symbol = Symbol("no serials");
function serialsOrNone(sheet: TabSheet, model: TabModel): Promise<Serials | undefined | typeof NO_SERIALS> {
  return fetchSerials(sheet, model).catch((err: unknown) => {
    log.warn(
      { sheet: sheet.id, tab: model.name, reason: err instanceof Error ? err.message : String(err) },
      "cache: date serial numbers unavailable, dates read from their display",
    );
    return NO_SERIALS;
  });
}

const dating = new WeakMap<TabData, Promise<TabData>>();

/** The entry's copy with its date columns' serial numbers, read once per copy (concurrent readers share the call). */
async function datedCopy(sheet: TabSheet, model: TabModel, entry: Entry): Promise<TabData> {
  const data = entry.data;
  if (data.dated || !dateColumnsOf(data).length) return data;
  let flight = dating.get(data);
  if (!flight) {
    flight = serialsOrNone(sheet, model).then((serials) =>
      serials === NO_SERIALS ? data : withSerials(data, serials),
    );
    dating.set(data, flight);
  }
  const dated = await flight;
  if (entry.data === data) entry.data = dated;
  return dated;
}

function load(sheet: TabSheet, model: TabModel, version: number | undefined, dates = false): Promise<Entry> {
  const key = entryKey(sheet.id, model.name);
  const flightKey = `${key}\u0000${version ?? "?"}`;
  let flight = inflight.get(flightKey);
  if (!flight) {
    flight = (async () => {
      // Asked before the read: an edit landing in between makes the next check re-read, never miss.
      const epoch = await changeEpoch(sheet);
      const startedAt = Date.now();
      // A read that needs the dates' serial numbers asks for them beside the values, not after.
      const [data, serials] = await Promise.all([
        fetchCoalesced(sheet, model),
        dates && dateColumnsOf(model).length
          ? serialsOrNone(sheet, model)
          : Promise.resolve<typeof NO_SERIALS>(NO_SERIALS),
      ]);
      const entry = {
        model,
        data: serials === NO_SERIALS ? data : withSerials(data, serials),
        fetchedAt: Date.now(),
        version,
        epoch,
        fingerprint: fingerprintOf(data),
      };
      recordRead(sheet.id, model.name, entry, sheet.cacheTtlSeconds);
      // Edits made in Google Sheets become change events (compared with the last copy, in the background).
      void noteTabRead(sheet.id, entry.data, startedAt);
      entries.delete(key);
      entries.set(key, entry);
      if (entries.size > MAX_ENTRIES) entries.delete(entries.keys().next().value!);
      return entry;
    })().finally(() => inflight.delete(flightKey));
    inflight.set(flightKey, flight);
    flightStarted.set(flight, Date.now());
  }
  return flight;
}

/**
 * A tab's rows from cache when current, else from Google. `version` is the tab's data version
 * read from the store with the key (undefined when the store is unreachable). `fresh`
 * (Cache-Control: no-cache) reads the sheet from Google now (concurrent such reads share one call).
 * `dates`: the read needs the date columns' serial numbers (typed values, date filters and sorts).
 */
export async function readTab(
  sheet: TabSheet,
  model: TabModel,
  version: number | undefined,
  { fresh = false, dates = false } = {},
): Promise<{ data: TabData; cache: CacheStatus }> {
  const result = await readThrough(sheet, model, newestVersion(entryKey(sheet.id, model.name), version), fresh, dates);
  countRead(sheet.id, result.cache);
  return result;
}

/** The copy `readTab` gave, with its date columns' serial numbers when a read finds it needs them after all. */
export async function withDates(sheet: TabSheet, model: TabModel, data: TabData): Promise<TabData> {
  if (data.dated || !dateColumnsOf(data).length) return data;
  const entry = entries.get(entryKey(sheet.id, model.name));
  if (entry?.data === data) return datedCopy(sheet, model, entry);
  return datedCopy(sheet, model, { model, data, fetchedAt: 0, version: OUT_OF_DATE, epoch: 0, fingerprint: "" });
}

/**
 * How long a read of an expired copy that may still be served waits for Google before it is
 * answered from that copy, marked STALE: a slow Google must not hold every read for its whole
 * timeout. The read goes on, and when it lands its copy serves the reads after it. The wait
 * counts from when that read began, so the reads that join it wait no longer than the first.
 */
export const STALE_AFTER_MS = 2_000;

async function readThrough(
  sheet: TabSheet,
  model: TabModel,
  version: number | undefined,
  fresh: boolean,
  dates: boolean,
): Promise<{ data: TabData; cache: CacheStatus }> {
  const hit = entries.get(entryKey(sheet.id, model.name));
  const sameVersion = hit !== undefined && hit.version === version;
  if (sameVersion) {
    const why = await staleness(sheet, hit, fresh);
    if (why === "current") return { data: dates ? await datedCopy(sheet, model, hit) : hit.data, cache: "HIT" };
    if (why === "changed") refreshSiblings(sheet, model, await changeEpoch(sheet));
  }
  // Never after our own write (the version moved): a client must see what it wrote. A stale
  // copy without its dates' serial numbers answers with dates read from their display, as a
  // copy whose serials could not be read does.
  const stale = sameVersion ? hit : undefined;
  const servable = () => stale !== undefined && Date.now() - stale.fetchedAt <= (sheet.maxStaleSeconds ?? 0) * 1000;
  try {
    const loading = load(sheet, model, version, dates);
    // A no-cache read asked for the sheet as it is: it waits for Google.
    const waited = Date.now() - (flightStarted.get(loading) ?? Date.now());
    const entry =
      servable() && !fresh ? await withinDeadline(loading, Math.max(0, STALE_AFTER_MS - waited)) : await loading;
    if (entry === TOO_SLOW) {
      loading.catch(() => undefined);
      noteStale(
        sheet.id,
        model.name,
        new ApiError("gateway_timeout", `Google Sheets did not answer within ${STALE_AFTER_MS} ms`),
      );
      return { data: stale!.data, cache: "STALE" };
    }
    return { data: dates ? await datedCopy(sheet, model, entry) : entry.data, cache: "MISS" };
  } catch (err) {
    if (servable() && googleUnavailable(err)) {
      noteStale(sheet.id, model.name, err as ApiError);
      return { data: stale!.data, cache: "STALE" };
    }
    throw err;
  }
}

// One log line per tab and minute, however many reads get the stale copy.
const staleLogged = new Map<string, number>();
function noteStale(sheetId: string, tab: string, err: ApiError): void {
  const key = entryKey(sheetId, tab);
  if (Date.now() - (staleLogged.get(key) ?? 0) < 60_000) return;
  if (staleLogged.size > 1000) staleLogged.clear();
  staleLogged.set(key, Date.now());
  log.warn({ sheet: sheetId, tab, reason: err.message }, "cache: serving stale copies");
}

// A tab's data version only grows. Requests read it from the store as they arrive, so around a
// write some carry the version before it; served as the newest seen, they share its copy instead
// of loading (and spending Google quota on) an older one. Only for a moment: if older versions
// keep coming, the store was reset (a Redis restart starts the counters again), and the lower
// version becomes the newest, so writes after the reset invalidate copies again.
const STRAGGLER_MS = 2_000;
const MAX_VERSIONS = 10_000;
const newest = new Map<string, { version: number; at: number }>();
function newestVersion(tabKey: string, version: number | undefined, now = Date.now()): number | undefined {
  if (version === undefined) return undefined;
  const seen = newest.get(tabKey);
  if (seen && seen.version === version) return version;
  if (seen && seen.version > version && now - seen.at < STRAGGLER_MS) return seen.version;
  if (!seen && newest.size >= MAX_VERSIONS) newest.delete(newest.keys().next().value!);
  newest.set(tabKey, { version, at: now });
  return version;
}

/**
 * After a write through this service to some of a sheet's tabs: every instance's copies of those
 * tabs are out of date; the sheet's other tabs stay. The sheet's write count tells every
 * instance's change check that the file changed through the service (change-check.ts).
 */
export async function invalidateTabs(
  sheet: Pick<SheetRecord, "id" | "access" | "refreshTokenCiphertext">,
  tabs: string[],
  { confirmed = true } = {},
): Promise<void> {
  // Marked out of date rather than dropped: never served stale after our own write.
  for (const tab of tabs) {
    const entry = entries.get(entryKey(sheet.id, tab));
    if (entry) entry.version = OUT_OF_DATE;
  }
  const store = getLimitStore();
  await Promise.all([
    ...tabs.map((tab) => store.incr(dataVersionKey(sheet.id, tab), VERSION_TTL_SECONDS)),
    store.incr(sheetWritesKey(sheet.id), VERSION_TTL_SECONDS),
    // Only a write known to have landed explains a change Drive reports; one whose outcome is
    // unknown, or that failed, must not hide an edit made in the Sheets UI meanwhile.
    ...(confirmed ? [noteConfirmedWrite(sheet.id)] : []),
  ]);
}

/**
 * After a write through this instance whose answer read the whole tab back (write-batches.ts):
 * the tab's version moves, so every other instance reads the tab once more, and this instance's
 * copy becomes the read-back itself, as a fresh read would give it, so its next read costs no
 * Google call. Call under the tab's lock, so no other write can slip in between the write and the
 * version it is installed at. Throws when the store cannot count the version: the caller then
 * invalidates instead.
 */
export async function installWrittenCopy(
  sheet: Pick<SheetRecord, "id" | "access" | "refreshTokenCiphertext">,
  model: TabModel,
  data: TabData,
  epoch: number,
): Promise<void> {
  const store = getLimitStore();
  const [version] = await Promise.all([
    store.incr(dataVersionKey(sheet.id, model.name), VERSION_TTL_SECONDS),
    store.incr(sheetWritesKey(sheet.id), VERSION_TTL_SECONDS),
    noteConfirmedWrite(sheet.id),
  ]);
  const key = entryKey(sheet.id, model.name);
  entries.delete(key);
  entries.set(key, { model, data, fetchedAt: data.readAt, version, epoch, fingerprint: fingerprintOf(data) });
  newestVersion(key, version);
}

/**
 * The tab's cached copy when a read would be served it now without a Google call (its version is
 * the store's, it is younger than the TTL, Drive reported no change since); undefined otherwise.
 * Asks Google nothing.
 */
export async function currentCopy(sheet: TabSheet, model: TabModel): Promise<TabData | undefined> {
  const entry = entries.get(entryKey(sheet.id, model.name));
  if (!entry || Date.now() - entry.fetchedAt >= sheet.cacheTtlSeconds * 1000 || entry.epoch !== knownEpoch(sheet.id))
    return undefined;
  const version = await tabDataVersion(sheet.id, model.name);
  return version !== undefined && version === entry.version ? entry.data : undefined;
}

/** After a schema refresh: every instance reads each of `tabs` again (this one: every tab of the sheet). */
export async function invalidateSheetData(sheetId: string, tabs: string[] = []): Promise<void> {
  for (const [key, entry] of entries) if (key.startsWith(`${sheetId}\u0000`)) entry.version = OUT_OF_DATE;
  const store = getLimitStore();
  await Promise.all(tabs.map((tab) => store.incr(dataVersionKey(sheetId, tab), VERSION_TTL_SECONDS)));
}
