// The names of the ledger's fields (usage, sheet stats, last use) and how a sealed batch of them
// is read back. Tab-separated, not JSON: the Upstash client parses JSON replies (README.md).
import type { LedgerBatch } from "@/db/queries/usage";
import type { SheetStatsRow, UsageRow } from "@/db/schema";

export const SHEET_STAT_COLUMNS = ["googleCalls", "cacheHits", "cacheMisses", "staleServed"] as const;
export type SheetStatColumn = (typeof SHEET_STAT_COLUMNS)[number];

type UsageKey = Omit<UsageRow, "count">;
const STATS = "stats";
const USED = "used";

export const usageField = (k: UsageKey) => [k.userId, k.sheetId, k.keyId, k.day, k.statusClass].join("\t");
export const sheetStatField = (sheetId: string, day: string, column: SheetStatColumn) =>
  [STATS, sheetId, day, column].join("\t");
export const lastUsedField = (keyId: string) => `${USED}\t${keyId}`;

const isStatColumn = (name: string | undefined): name is SheetStatColumn =>
  (SHEET_STAT_COLUMNS as readonly string[]).includes(name ?? "");

/**
 * A sealed batch's fields as rows: usage per key, stats per sheet and day, each key's latest use;
 * `unreadable`, fields of no kind this version knows (written by a newer one).
 */
export function readLedgerBatch(fields: Record<string, number>): LedgerBatch & { unreadable: string[] } {
  const usage: UsageRow[] = [];
  const unreadable: string[] = [];
  const stats = new Map<string, SheetStatsRow>();
  const lastUsed: LedgerBatch["lastUsed"] = [];
  for (const [field, value] of Object.entries(fields)) {
    const parts = field.split("\t");
    const n = Number(value);
    if (parts[0] === USED && parts.length === 2) {
      lastUsed.push({ keyId: parts[1]!, at: new Date(n) });
    } else if (parts[0] === STATS && parts.length === 4 && isStatColumn(parts[3])) {
      const [, sheetId, day, column] = parts as [string, string, string, SheetStatColumn];
      const row = stats.get(`${sheetId}\t${day}`) ?? {
        sheetId,
        day,
        googleCalls: 0,
        cacheHits: 0,
        cacheMisses: 0,
        staleServed: 0,
      };
      row[column] = n;
      stats.set(`${sheetId}\t${day}`, row);
    } else if (parts.length === 5) {
      const [userId, sheetId, keyId, day, statusClass] = parts as [string, string, string, string, string];
      usage.push({ userId, sheetId, keyId, day, statusClass, count: n });
    } else unreadable.push(field);
  }
  return { usage, stats: [...stats.values()], lastUsed, unreadable };
}
