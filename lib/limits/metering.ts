// Usage records for the charts and reports (the limit store does the limiting): every answer to
// a valid key is counted per account, sheet, key, UTC day and status class, and written to
// Postgres in batches off the hot path (a crash loses at most one flush interval).
import { addUsage } from "@/db/queries/usage";
import { counterBatch } from "@/lib/batching/counter-batch";

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

export function recordUsage({ userId, sheetId, keyId, status, at = Date.now() }: { userId: string; sheetId: string; keyId: string; status: number; at?: number }): void {
  usage.add({ userId, sheetId, keyId, day: utcDay(at), statusClass: statusClass(status) }, { count: 1 });
}

/** Writes this instance's pending counts now (before usage is read, so reads include them). */
export const flushUsage = () => usage.flush();
