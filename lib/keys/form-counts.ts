// Form keys' counts of accepted and refused submissions: added up in memory and written in one
// batch at most every few seconds, so a flood of refused posts costs no database write each. A
// killed instance loses at most that much; a stopping one writes them (lib/lifecycle/flushes.ts).
import { addFormCounts } from "@/db/queries/api-keys";
import { registerFlush } from "@/lib/lifecycle/flushes";
import { errorFields, log } from "@/lib/log";
import { perProcess } from "@/lib/per-process";

const FLUSH_DELAY_MS = 5_000;
type Counts = { accepted: number; refused: number };
const state = perProcess("keys:form-counts", () => ({
  pending: new Map<string, Counts>(),
  timer: undefined as NodeJS.Timeout | undefined,
}));

export async function flushFormCounts(): Promise<void> {
  if (state.timer) clearTimeout(state.timer);
  state.timer = undefined;
  const batch = [...state.pending];
  state.pending.clear();
  for (const [id, counts] of batch) {
    await addFormCounts({ id, ...counts }).catch((err: unknown) =>
      log.warn({ key_id: id, ...errorFields(err) }, "forms: submission counts not written"),
    );
  }
}
registerFlush("keys:form-counts", flushFormCounts);

export function countFormSubmission(keyId: string, accepted: boolean): void {
  const counts = state.pending.get(keyId) ?? { accepted: 0, refused: 0 };
  counts[accepted ? "accepted" : "refused"] += 1;
  state.pending.set(keyId, counts);
  state.timer ??= setTimeout(() => void flushFormCounts(), FLUSH_DELAY_MS);
  state.timer.unref?.();
}
