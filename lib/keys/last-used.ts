// "Last used" stamps: collected in memory and written to Postgres in one batch at most every
// few seconds, after the answers, so the request path never waits on them.
import { stampApiKeysUsed } from "@/db/queries/api-keys";
import { errorFields, log } from "@/lib/log";

const FLUSH_DELAY_MS = 5_000;
const pending = new Set<string>();
let timer: NodeJS.Timeout | undefined;

export async function flushKeyUsage(): Promise<void> {
  if (timer) clearTimeout(timer);
  timer = undefined;
  if (!pending.size) return;
  const ids = [...pending];
  pending.clear();
  await stampApiKeysUsed({ ids, at: new Date() }).catch((err: unknown) =>
    log.warn({ keys: ids.length, ...errorFields(err) }, "keys: could not stamp last use"),
  );
}

export function noteKeyUsed(keyId: string): void {
  pending.add(keyId);
  timer ??= setTimeout(() => void flushKeyUsage(), FLUSH_DELAY_MS);
  timer.unref?.();
}
