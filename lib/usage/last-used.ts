// Keys' "last used" stamps: to the shared store's ledger with the answer's usage, or batched in
// this process on the in-process store (README.md).
import { stampApiKeysUsed } from "@/db/queries/api-keys";
import { registerFlush } from "@/lib/lifecycle/flushes";
import { lastUsedField } from "@/lib/usage/ledger-fields";
import { addToLedger, rollUpUsage, usageLedger } from "@/lib/usage/usage-ledger";
import { errorFields, log } from "@/lib/log";
import { metrics } from "@/lib/observability/metrics";
import { perProcess } from "@/lib/per-process";

const FLUSH_DELAY_MS = 5_000;
const state = perProcess("keys:last-used", () => ({
  pending: new Set<string>(),
  timer: undefined as NodeJS.Timeout | undefined,
}));

export async function flushKeyUsage(): Promise<void> {
  if (state.timer) clearTimeout(state.timer);
  state.timer = undefined;
  if (!state.pending.size) return;
  const ids = [...state.pending];
  state.pending.clear();
  await stampApiKeysUsed({ ids, at: new Date() }).catch((err: unknown) => {
    metrics.databaseError({ during: "batch" });
    log.warn({ keys: ids.length, ...errorFields(err) }, "keys: could not stamp last use");
  });
}
registerFlush("keys:last-used", flushKeyUsage);

/** Stamps the key in this process's batch (no ledger, or the store did not take the stamp). */
export function keepKeyUsed(keyId: string): void {
  state.pending.add(keyId);
  state.timer ??= setTimeout(() => void flushKeyUsage(), FLUSH_DELAY_MS);
  state.timer.unref?.();
}

/** Stamps a key used by a request that writes no usage count (account routes); sent before its answer is made. */
export function noteKeyUsed(keyId: string): void {
  const ledger = usageLedger();
  if (!ledger) return keepKeyUsed(keyId);
  addToLedger(ledger, { counts: [], latest: [[lastUsedField(keyId), Date.now()]] }).catch(() => keepKeyUsed(keyId));
}

/** Writes every stamp taken so far, this process's and the ledger's (before keys are listed, so the list shows them). */
export async function settleKeyStamps(): Promise<void> {
  await Promise.all([flushKeyUsage(), rollUpUsage().catch(() => undefined)]);
}
