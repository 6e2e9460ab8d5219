// Noticing edits made directly in the spreadsheet: the file's modifiedTime from the Drive API
// (a separate, larger quota than Sheets), asked at most once per CHANGE_CHECK_INTERVAL_MS per
// sheet and instance, with concurrent askers sharing one call. The tab cache re-reads a tab when
// the time moved, so an edit Drive already reports shows before the sheet's TTL runs out; the TTL
// bounds staleness in every case, since Drive's time can lag an edit by minutes.
import { config } from "@/lib/env";
import { withGoogle } from "./google-access";
import type { SheetRecord } from "./sheet-record";
import { errorFields, log } from "@/lib/log";

type WatchedSheet = Pick<SheetRecord, "id" | "access" | "refreshTokenCiphertext">;

interface Watch {
  /** Undefined when Drive could not tell. */
  modifiedTime: string | undefined;
  checkedAt: number;
  /** The sheet's data version when Drive was asked: a write since makes the answer old news. */
  version: number | undefined;
  flight?: Promise<string | undefined>;
}

const MAX_WATCHES = 5000;
const watches = new Map<string, Watch>();

async function askDrive(sheet: WatchedSheet): Promise<string | undefined> {
  try {
    const { data } = await withGoogle(sheet, (c) => c.drive.files.get({ fileId: sheet.id, fields: "modifiedTime", supportsAllDrives: true }), false, { quota: false });
    return data.modifiedTime ?? undefined;
  } catch (err) {
    log.warn({ sheet: sheet.id, ...errorFields(err) }, "cache: Drive change check failed, the cache TTL applies");
    return undefined;
  }
}

/**
 * The sheet's last modification time as Drive reports it, at most `interval` old, and asked
 * after the sheet's data version last moved (a write through any instance changes the file, so
 * an answer from before it would make the next check re-read the tabs once more for nothing).
 */
export async function sheetModifiedTime(sheet: WatchedSheet, version?: number, now = Date.now()): Promise<string | undefined> {
  const interval = config().env.CHANGE_CHECK_INTERVAL_MS;
  const watch = watches.get(sheet.id);
  const sameVersion = watch !== undefined && (version === undefined || watch.version === version);
  if (watch && sameVersion && now - watch.checkedAt < interval) return watch.flight ?? watch.modifiedTime;
  if (watch?.flight && sameVersion) return watch.flight;
  if (!watch && watches.size >= MAX_WATCHES) watches.delete(watches.keys().next().value!);
  const next: Watch = { modifiedTime: watch?.modifiedTime, checkedAt: now, version: version ?? watch?.version };
  next.flight = askDrive(sheet).then((modifiedTime) => {
    next.modifiedTime = modifiedTime;
    next.checkedAt = Date.now();
    next.flight = undefined;
    return modifiedTime;
  });
  watches.set(sheet.id, next);
  return next.flight;
}

/** After our own write: the next read asks Drive again instead of trusting the last answer. */
export function forgetModifiedTime(sheetId: string): void {
  watches.delete(sheetId);
}
