// Usage records for the charts and reports (the limit store does the limiting): every answer to a
// valid key, per account, sheet, key, UTC day and status class, to the ledger or this process's
// batches (README.md).
import { addUsage } from "@/db/queries/usage";
import { counterBatch } from "@/lib/usage/counter-batch";
import { keepKeyUsed } from "@/lib/usage/last-used";
import { keepSheetStats } from "@/lib/usage/sheet-stats";
import { lastUsedField, sheetStatField, usageField } from "./ledger-fields";
import { closeTally } from "./request-tally";
import { addToLedger, rollUpUsage, usageLedger } from "./usage-ledger";
import { utcDay } from "./utc-day";

export const STATUS_CLASSES = ["2xx", "3xx", "4xx", "429", "5xx"] as const;
export type StatusClass = (typeof STATUS_CLASSES)[number];
/** The classes that count toward limits (DECISIONS 15): everything but 429 and 5xx. */
export const COUNTED_CLASSES: readonly StatusClass[] = ["2xx", "3xx", "4xx"];

export function statusClass(status: number): StatusClass {
  if (status === 429) return "429";
  if (status >= 500) return "5xx";
  if (status >= 400) return "4xx";
  if (status >= 300) return "3xx";
  return "2xx";
}

type UsageKey = { userId: string; sheetId: string; keyId: string; day: string; statusClass: string };
const usage = counterBatch<UsageKey, { count: number }>("usage", { count: 0 }, addUsage);

/**
 * Counts one answer, with the sheet stats its request counted and its key's last use.
 * `storeAnswered`: the limit store answered for this request (it was limited and counted there);
 * otherwise the ledger is not tried, so an outage costs no second timeout.
 */
export async function recordUsage({
  userId,
  sheetId,
  keyId,
  status,
  at = Date.now(),
  storeAnswered = false,
}: {
  userId: string;
  sheetId: string;
  keyId: string;
  status: number;
  at?: number;
  storeAnswered?: boolean;
}): Promise<void> {
  const key = { userId, sheetId, keyId, day: utcDay(at), statusClass: statusClass(status) };
  const stats = closeTally();
  const ledger = storeAnswered ? usageLedger() : undefined;
  if (ledger) {
    try {
      const counts: [string, number][] = [
        [usageField(key), 1],
        ...stats.map((s): [string, number] => [sheetStatField(s.sheetId, s.day, s.column), s.n]),
      ];
      return await addToLedger(ledger, { counts, latest: [[lastUsedField(keyId), at]] });
    } catch {
      // The store stopped answering since it admitted this request: the process's batches keep it
      // (the failure is counted in the metrics by the store itself).
    }
  }
  usage.add(key, { count: 1 });
  keepSheetStats(stats);
  keepKeyUsed(keyId);
}

/** Writes the pending counts now, this instance's and the ledger's (before usage is read, so reads include them). */
export async function flushUsage(): Promise<void> {
  await Promise.all([usage.flush(), rollUpUsage().catch(() => undefined)]);
}
