// Per sheet and UTC day: the Google calls made for it and how its reads were served, for the
// owner's dashboard; to the ledger or this process's batch (README.md).
import { addSheetStats, sheetStats } from "@/db/queries/sheet-stats";
import { counterBatch } from "@/lib/usage/counter-batch";
import { sheetStatField, type SheetStatColumn } from "@/lib/usage/ledger-fields";
import { tallySheetStat } from "@/lib/usage/request-tally";
import { addToLedger, rollUpUsage, usageLedger } from "@/lib/usage/usage-ledger";
import { utcDay } from "@/lib/usage/utc-day";
import { metrics } from "@/lib/observability/metrics";

const ZERO = { googleCalls: 0, cacheHits: 0, cacheMisses: 0, staleServed: 0 };
const stats = counterBatch<{ sheetId: string; day: string }, typeof ZERO>("sheet-stats", ZERO, addSheetStats);

/** Keeps counts in this process's batch (no ledger, or the store did not take them). */
export function keepSheetStats(counts: { sheetId: string; day: string; column: SheetStatColumn; n: number }[]): void {
  for (const c of counts) stats.add({ sheetId: c.sheetId, day: c.day }, { [c.column]: c.n });
}

function count(sheetId: string, column: SheetStatColumn): void {
  const day = utcDay(Date.now());
  if (tallySheetStat(sheetId, day, column)) return;
  const ledger = usageLedger();
  if (!ledger) return keepSheetStats([{ sheetId, day, column, n: 1 }]);
  addToLedger(ledger, { counts: [[sheetStatField(sheetId, day, column), 1]], latest: [] }).catch(() =>
    keepSheetStats([{ sheetId, day, column, n: 1 }]),
  );
}

/** How a read was served: from the current copy, from Google, or from a stale copy while Google failed. */
export type CacheStatus = "HIT" | "MISS" | "STALE";

export function countGoogleCall(sheetId: string): void {
  count(sheetId, "googleCalls");
}

const FIELD = { HIT: "cacheHits", MISS: "cacheMisses", STALE: "staleServed" } as const;

export function countRead(sheetId: string, cache: CacheStatus): void {
  metrics.read({ cache });
  count(sheetId, FIELD[cache]);
}

/** The last `days` days (today included) of a sheet's stats, with totals and the hit rate. */
export async function recentSheetStats(sheetId: string, days = 7) {
  await Promise.all([stats.flush(), rollUpUsage().catch(() => undefined)]);
  const to = Date.now();
  const rows = await sheetStats({ sheetId, from: utcDay(to - (days - 1) * 86_400_000) });
  const total = rows.reduce(
    (t, r) => ({
      googleCalls: t.googleCalls + r.googleCalls,
      cacheHits: t.cacheHits + r.cacheHits,
      cacheMisses: t.cacheMisses + r.cacheMisses,
      staleServed: t.staleServed + r.staleServed,
    }),
    { ...ZERO },
  );
  const reads = total.cacheHits + total.cacheMisses + total.staleServed;
  const today = rows.find((r) => r.day === utcDay(to)) ?? { ...ZERO, day: utcDay(to) };
  return { today, total, hitRate: reads ? total.cacheHits / reads : null, reads };
}
