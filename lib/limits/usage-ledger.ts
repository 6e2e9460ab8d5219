// Usage counted where it survives the process: with a shared limit store (Upstash), each answer
// adds to the store's ledger before it is sent, so an instance killed (-9) at any moment has lost
// no count of an answer a client received. Any instance rolls the ledger up into usage_daily:
// the ledger is sealed into a batch (atomically, lua-scripts.ts), the batch is added to Postgres
// under its id (once, db/queries/usage.ts), then dropped. A roller dying half-way leaves the
// batch sealed; the next roll-up, on any instance, finishes it without counting it twice.
import { randomUUID } from "node:crypto";
import { getDatabaseHandle } from "@/db/client";
import { addUsageBatch } from "@/db/queries/usage";
import type { UsageRow } from "@/db/schema";
import { config } from "@/lib/env";
import { registerFlush } from "@/lib/lifecycle/flushes";
import { errorFields, log } from "@/lib/log";
import { perProcess } from "@/lib/per-process";
import { getLimitStore, type UsageLedger } from "./store";

type UsageKey = Omit<UsageRow, "count">;

// Tab-separated, not JSON: the Upstash client turns any reply that parses as JSON into a value.
// None of the parts can hold a tab (ids, a date, a status class).
const fieldOf = (k: UsageKey) => [k.userId, k.sheetId, k.keyId, k.day, k.statusClass].join("\t");

function rowOf(field: string, count: number): UsageRow {
  const [userId, sheetId, keyId, day, statusClass] = field.split("\t");
  return { userId: userId!, sheetId: sheetId!, keyId: keyId!, day: day!, statusClass: statusClass!, count: Number(count) };
}

const state = perProcess("usage-ledger", () => ({ timer: undefined as NodeJS.Timeout | undefined, rolling: undefined as Promise<void> | undefined }));

/** The store's ledger, when the store keeps one. */
export const usageLedger = (): UsageLedger | undefined => getLimitStore().ledger;

/** Counts one answer in the ledger; rejects when the store does not answer (the caller keeps it). */
export async function addToLedger(ledger: UsageLedger, key: UsageKey): Promise<void> {
  await ledger.add(getDatabaseHandle().scope, fieldOf(key), 1);
  state.timer ??= setTimeout(() => void rollUpUsage().catch(() => undefined), config().env.USAGE_FLUSH_MS);
  state.timer.unref?.();
}

async function rollUpOnce(ledger: UsageLedger): Promise<void> {
  const scope = getDatabaseHandle().scope;
  const batches = await ledger.seal(scope, `${Date.now()}:${randomUUID()}`);
  for (const id of batches) {
    const counts = await ledger.batch(id);
    await addUsageBatch(id, Object.entries(counts).map(([field, n]) => rowOf(field, n)));
    await ledger.drop(scope, id);
  }
}

/** Moves the ledger's counts into Postgres now (also before usage is read, so reads include them). */
export async function rollUpUsage(): Promise<void> {
  if (state.timer) clearTimeout(state.timer);
  state.timer = undefined;
  const ledger = usageLedger();
  if (!ledger) return;
  // One roll-up at a time in a process; others (other instances) are safe beside it.
  while (state.rolling) await state.rolling;
  state.rolling = rollUpOnce(ledger)
    .catch((err: unknown) => {
      log.warn({ ...errorFields(err) }, "usage: rolling the ledger up failed, it stays in the store for the next roll-up");
      throw err;
    })
    .finally(() => {
      state.rolling = undefined;
    });
  await state.rolling;
}

registerFlush("usage-ledger", rollUpUsage);
