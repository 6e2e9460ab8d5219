// Per sheet and UTC day: the Google Sheets calls made for it and how its reads were served, for
// the owner's dashboard. Counted in memory and written in batches, off the hot path.
import { addSheetStats, sheetStats } from "@/db/queries/sheet-stats";
import { counterBatch } from "@/lib/batching/counter-batch";
import { utcDay } from "@/lib/limits/metering";
import { metrics } from "@/lib/observability/metrics";
import type { CacheStatus } from "./tab-cache";

const ZERO = { googleCalls: 0, cacheHits: 0, cacheMisses: 0, staleServed: 0 };
const stats = counterBatch<{ sheetId: string; day: string }, typeof ZERO>("sheet-stats", ZERO, addSheetStats);

export function countGoogleCall(sheetId: string): void {
  stats.add({ sheetId, day: utcDay(Date.now()) }, { googleCalls: 1 });
}

const FIELD = { HIT: "cacheHits", MISS: "cacheMisses", STALE: "staleServed" } as const;

export function countRead(sheetId: string, cache: CacheStatus): void {
  metrics.read({ cache });
  stats.add({ sheetId, day: utcDay(Date.now()) }, { [FIELD[cache]]: 1 });
}

/** The last `days` days (today included) of a sheet's stats, with totals and the hit rate. */
export async function recentSheetStats(sheetId: string, days = 7) {
  await stats.flush();
  const to = Date.now();
  const rows = await sheetStats({ sheetId, from: utcDay(to - (days - 1) * 86_400_000) });
  const total = rows.reduce((t, r) => ({ googleCalls: t.googleCalls + r.googleCalls, cacheHits: t.cacheHits + r.cacheHits, cacheMisses: t.cacheMisses + r.cacheMisses, staleServed: t.staleServed + r.staleServed }), { ...ZERO });
  const reads = total.cacheHits + total.cacheMisses + total.staleServed;
  const today = rows.find((r) => r.day === utcDay(to)) ?? { ...ZERO, day: utcDay(to) };
  return { today, total, hitRate: reads ? total.cacheHits / reads : null, reads };
}
