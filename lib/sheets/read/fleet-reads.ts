// Reads of a tab one instance made, trusted by the others when version, change epoch and values'
// fingerprint match (one fleet, not N copies; DECISIONS 12 holds: README.md).
import { createHash } from "node:crypto";
import { getLimitStore } from "@/lib/store/store";
import type { TabData } from "@/lib/sheets/values/rows";

/** `v` is when the tab was read (Unix ms): a later read replaces an earlier one. */
interface FleetRead {
  v: number;
  version: number;
  epoch: number;
  fingerprint: string;
}

/** What a copy must match to take another instance's read as its own. */
export interface CopyState {
  fetchedAt: number;
  version: number | undefined;
  epoch: number;
  fingerprint: string;
}

const fleetReadKey = (sheetId: string, tab: string) => `sheetapi:tabread:${sheetId}:${tab}`;

/** A digest of a copy's values as read (the cells, their header and where the data ends). */
export function fingerprintOf(data: TabData): string {
  const hash = createHash("sha1").update(JSON.stringify([data.columns, data.lastRowNumber, data.where]));
  // Rows hand out their cells on demand (tab-columns.ts): each row is spelled out.
  for (const row of data.rows) hash.update(JSON.stringify([row.rowNumber, row.id, row.cells]));
  return hash.digest("base64url");
}

/** Tells the fleet this instance read the tab (best effort: without the store each instance reads for itself). */
export function recordRead(sheetId: string, tab: string, copy: CopyState, ttlSeconds: number): void {
  if (copy.version === undefined) return;
  const read: FleetRead = {
    v: copy.fetchedAt,
    version: copy.version,
    epoch: copy.epoch,
    fingerprint: copy.fingerprint,
  };
  // Kept a little past the TTL: a copy read just before it may still take it up to then.
  getLimitStore()
    .setIfNewer(fleetReadKey(sheetId, tab), read, ttlSeconds + 60)
    .catch(() => undefined);
}

/**
 * When another instance read the tab with the same values within `ttlMs`, at the copy's version
 * and epoch: that read's time, which the copy may take as its own. Undefined otherwise.
 */
export async function verifiedElsewhere(
  sheetId: string,
  tab: string,
  copy: CopyState,
  ttlMs: number,
  now = Date.now(),
): Promise<number | undefined> {
  if (copy.version === undefined) return undefined;
  let read: FleetRead | null | undefined;
  try {
    [read] = await getLimitStore().mget<FleetRead>([fleetReadKey(sheetId, tab)]);
  } catch {
    return undefined;
  }
  if (!read || read.v <= copy.fetchedAt || now - read.v >= ttlMs) return undefined;
  const same = read.version === copy.version && read.epoch === copy.epoch && read.fingerprint === copy.fingerprint;
  return same ? read.v : undefined;
}
