// Usage counted where it survives the process: each answer's entry is in the shared store's
// ledger before it is sent, and any instance rolls the ledger up into Postgres exactly once
// (README.md).
import { randomUUID } from "node:crypto";
import { databaseScope, ledgerScopes } from "@/db/queries/database";
import { addLedgerBatch } from "@/db/queries/usage";
import { config } from "@/lib/env";
import { registerFlush } from "@/lib/lifecycle/flushes";
import { errorFields, log } from "@/lib/log";
import { metrics } from "@/lib/observability/metrics";
import { perProcess } from "@/lib/per-process";
import { readLedgerBatch } from "./ledger-fields";
import { getLimitStore, type LedgerEntry, type UsageLedger } from "@/lib/store/store";

const state = perProcess("usage-ledger", () => ({
  timer: undefined as NodeJS.Timeout | undefined,
  rolling: undefined as Promise<void> | undefined,
}));

/** The store's ledger, when the store keeps one. */
export const usageLedger = (): UsageLedger | undefined => getLimitStore().ledger;

/** Adds one entry to the ledger; rejects when the store does not answer (the caller keeps it). */
export async function addToLedger(ledger: UsageLedger, entry: LedgerEntry): Promise<void> {
  await ledger.add(await databaseScope(), entry);
  state.timer ??= setTimeout(() => void rollUpUsage().catch(() => undefined), config().env.USAGE_FLUSH_MS);
  state.timer.unref?.();
}

async function rollUpOnce(ledger: UsageLedger): Promise<void> {
  // Also the ledger versions before the database's id filed under this instance's address.
  for (const scope of await ledgerScopes()) await rollUpScope(ledger, scope);
}

async function rollUpScope(ledger: UsageLedger, scope: string): Promise<void> {
  const batches = await ledger.seal(scope, `${Date.now()}:${randomUUID()}`);
  for (const id of batches) {
    const { unreadable, ...rows } = readLedgerBatch(await ledger.batch(id));
    if (unreadable.length)
      log.warn(
        { batch: id, fields: unreadable.length, first: unreadable[0] },
        "usage: ledger fields of no known kind left out of the roll-up",
      );
    await addLedgerBatch(id, rows).catch((err: unknown) => {
      metrics.databaseError({ during: "rollup" });
      throw err;
    });
    await ledger.drop(scope, id);
  }
}

/** Moves the ledger's counts and stamps into Postgres now (also before they are read, so reads include them). */
export async function rollUpUsage(): Promise<void> {
  if (state.timer) clearTimeout(state.timer);
  state.timer = undefined;
  const ledger = usageLedger();
  if (!ledger) return;
  // One roll-up at a time in a process; others (other instances) are safe beside it.
  while (state.rolling) await state.rolling;
  state.rolling = rollUpOnce(ledger)
    .catch((err: unknown) => {
      log.warn(
        { ...errorFields(err) },
        "usage: rolling the ledger up failed, it stays in the store for the next roll-up",
      );
      throw err;
    })
    .finally(() => {
      state.rolling = undefined;
    });
  await state.rolling;
}

registerFlush("usage-ledger", rollUpUsage);
