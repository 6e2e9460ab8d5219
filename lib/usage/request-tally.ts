// The sheet stats a key request counts while it is answered (a cache hit, a Google call), held
// with the request until its usage is written: the one ledger write each answer makes carries
// them too (lib/usage/metering.ts), so the hot path spends no store call of its own on them.
import { currentRequest, type RequestTally } from "@/lib/observability/request-context";
import type { SheetStatColumn } from "./ledger-fields";

/** Starts holding the stats of the key request being answered (lib/routes/with-api-key.ts). */
export function openTally(): void {
  const request = currentRequest();
  if (request) request.tally = { open: true, stats: [] };
}

/** Holds one count for the request being answered: false outside a key request, or once its usage was written. */
export function tallySheetStat(sheetId: string, day: string, column: SheetStatColumn): boolean {
  const tally = currentRequest()?.tally;
  if (!tally?.open) return false;
  const same = tally.stats.find((s) => s.sheetId === sheetId && s.day === day && s.column === column);
  if (same) same.n++;
  else tally.stats.push({ sheetId, day, column, n: 1 });
  return true;
}

/** The counts held for the request being answered, which from now on holds none. */
export function closeTally(): RequestTally["stats"] {
  const tally = currentRequest()?.tally;
  if (!tally?.open) return [];
  tally.open = false;
  return tally.stats;
}
