// Usage records for the charts and reports (the limit store does the limiting): every answer to
// a valid key is counted per account, sheet, key, UTC day and status class. With a shared limit
// store the count goes to its ledger before the answer is sent, and is rolled up into Postgres
// (usage-ledger.ts): no crash loses it. Without one (the in-process store), or while the store
// does not answer, it is kept in this process's batch and written to Postgres every
// USAGE_FLUSH_MS and when the server stops.
import { addUsage } from "@/db/queries/usage";
import { counterBatch } from "@/lib/batching/counter-batch";
import { metrics } from "@/lib/observability/metrics";
import { addToLedger, rollUpUsage, usageLedger } from "./usage-ledger";

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

const DAY_MS = 86_400_000;
// Every request names its day (usage, sheet stats): the text is made once per day, not per call.
let lastDay = { day: NaN, text: "" };
export function utcDay(at: number): string {
  const day = Math.floor(at / DAY_MS);
  if (day !== lastDay.day) lastDay = { day, text: new Date(day * DAY_MS).toISOString().slice(0, 10) };
  return lastDay.text;
}

type UsageKey = { userId: string; sheetId: string; keyId: string; day: string; statusClass: string };
const usage = counterBatch<UsageKey, { count: number }>("usage", { count: 0 }, addUsage);

/**
 * Counts one answer. `storeAnswered`: the limit store answered for this request (it was limited
 * and counted there); otherwise the ledger is not tried, so an outage costs no second timeout.
 */
export async function recordUsage({ userId, sheetId, keyId, status, at = Date.now(), storeAnswered = false }: { userId: string; sheetId: string; keyId: string; status: number; at?: number; storeAnswered?: boolean }): Promise<void> {
  const key = { userId, sheetId, keyId, day: utcDay(at), statusClass: statusClass(status) };
  const ledger = storeAnswered ? usageLedger() : undefined;
  if (ledger) {
    try {
      return await addToLedger(ledger, key);
    } catch {
      // The store stopped answering since it admitted this request: the process's batch keeps it.
      metrics.storeError({ during: "usage" });
    }
  }
  usage.add(key, { count: 1 });
}

/** Writes the pending counts now, this instance's and the ledger's (before usage is read, so reads include them). */
export async function flushUsage(): Promise<void> {
  await Promise.all([usage.flush(), rollUpUsage().catch(() => undefined)]);
}
