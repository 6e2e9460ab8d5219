// "Last used" stamps: collected in memory and written to Postgres in one batch at most every
// few seconds, after the answers, so the request path never waits on them. Held once per process
// (routes, pages and the stopping server's flush see the same set).
import { stampApiKeysUsed } from "@/db/queries/api-keys";
import { registerFlush } from "@/lib/lifecycle/flushes";
import { errorFields, log } from "@/lib/log";
import { perProcess } from "@/lib/per-process";

const FLUSH_DELAY_MS = 5_000;
const state = perProcess("keys:last-used", () => ({ pending: new Set<string>(), timer: undefined as NodeJS.Timeout | undefined }));

export async function flushKeyUsage(): Promise<void> {
  if (state.timer) clearTimeout(state.timer);
  state.timer = undefined;
  if (!state.pending.size) return;
  const ids = [...state.pending];
  state.pending.clear();
  await stampApiKeysUsed({ ids, at: new Date() }).catch((err: unknown) =>
    log.warn({ keys: ids.length, ...errorFields(err) }, "keys: could not stamp last use"),
  );
}
registerFlush("keys:last-used", flushKeyUsage);

export function noteKeyUsed(keyId: string): void {
  state.pending.add(keyId);
  state.timer ??= setTimeout(() => void flushKeyUsage(), FLUSH_DELAY_MS);
  state.timer.unref?.();
}
