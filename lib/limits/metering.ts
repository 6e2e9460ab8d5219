// Usage records for the charts and reports (the limit store does the limiting): every answer to
// a valid key is counted per account, sheet, key, UTC day and status class in memory, and each
// instance writes its counts to Postgres in one batch every USAGE_FLUSH_MS, off the hot path.
// A failed write keeps its counts for the next flush; a crash loses at most one interval.
import { addUsage } from "@/db/queries/usage";
import type { UsageRow } from "@/db/schema";
import { config } from "@/lib/env";

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

export const utcDay = (at: number) => new Date(at).toISOString().slice(0, 10);

// One batch per process: Next.js bundles route handlers and pages separately, so module state
// would be split between them and a page could not flush what the routes recorded.
interface Batch {
  pending: Map<string, UsageRow & { count: number }>;
  timer?: NodeJS.Timeout;
  flushing?: Promise<void>;
}
const globalRef = globalThis as typeof globalThis & { __sheetapiUsage?: Batch };
const batch: Batch = (globalRef.__sheetapiUsage ??= { pending: new Map() });
const pending = batch.pending;

const rowId = (r: UsageRow) => `${r.userId}\u0000${r.sheetId}\u0000${r.keyId}\u0000${r.day}\u0000${r.statusClass}`;

function add(row: UsageRow & { count: number }): void {
  const current = pending.get(rowId(row));
  if (current) current.count += row.count;
  else pending.set(rowId(row), { ...row });
}


export function recordUsage({ userId, sheetId, keyId, status, at = Date.now() }: { userId: string; sheetId: string; keyId: string; status: number; at?: number }): void {
  add({ userId, sheetId, keyId, day: utcDay(at), statusClass: statusClass(status), count: 1 });
  scheduleFlush();
}

function scheduleFlush(): void {
  batch.timer ??= setTimeout(() => void flushUsage(), config().env.USAGE_FLUSH_MS);
  batch.timer.unref?.();
}

/** Writes this instance's pending counts now (also before usage is read, so reads include them). */
export async function flushUsage(): Promise<void> {
  if (batch.timer) clearTimeout(batch.timer);
  batch.timer = undefined;
  // One write at a time: a second caller waits for it, then writes what arrived meanwhile.
  while (batch.flushing) await batch.flushing;
  if (!pending.size) return;
  const rows = [...pending.values()];
  pending.clear();
  batch.flushing = addUsage(rows)
    .catch((err: unknown) => {
      rows.forEach(add);
      console.warn(`[usage] could not write ${rows.length} usage rows, keeping them for the next flush: ${(err as Error).message}`);
      scheduleFlush();
    })
    .finally(() => {
      batch.flushing = undefined;
    });
  await batch.flushing;
}
