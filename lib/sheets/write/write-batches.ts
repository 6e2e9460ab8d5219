// The coalesced batch path (README.md): the tab's writes on this instance queue behind the tab,
// and those that arrive together, or while a write of the tab is under way, go out as ONE
// guarded batch in the tab's turn: one read of the tab and one batchUpdate for all of them.
import { withLock } from "@/lib/store/lock";
import { fetchTab } from "@/lib/sheets/read/tab-cache";
import type { TabData } from "@/lib/sheets/values/rows";
import type { TabModel } from "@/lib/sheets/values/tab-model";
import { settlePending } from "./write-guard";
import { tabLockKey } from "./tab-turn";
import { writeBatch } from "./batch-send";
import type { BatchKind, BatchSheet, Queue, Waiting, WriteJob } from "./batch-plan";

/** How long the first request of an idle tab waits for others to join its batch. */
const JOIN_WINDOW_MS = 3;
/** Batches one turn of the tab's lock may send: other instances' writers get their turn too. */
const BATCHES_PER_TURN = 4;
const queues = new Map<string, Queue>();

/**
 * Queues a request's write of the tab; resolves with its answer. Requests of one kind, on one tab,
 * made with the same version of the sheet's record share batches: a request made after the record
 * changed (registered again, another service account or grant, access or way of writing changed)
 * is sent with its own record, never with the one an earlier request brought.
 */
export function coalescedWrite<T>(sheet: BatchSheet, model: TabModel, kind: BatchKind, job: WriteJob<T>): Promise<T> {
  const key = [
    sheet.id,
    sheet.v ?? "",
    model.gid,
    model.name,
    kind.name,
    sheet.access,
    sheet.userEnteredWrites === true,
    sheet.refreshTokenCiphertext ?? "",
  ].join("\u0000");
  let queue = queues.get(key);
  if (!queue) {
    queues.set(key, (queue = { sheet, model, kind, waiting: [] }));
    setTimeout(() => void drain(key, queue!), JOIN_WINDOW_MS);
  }
  const q = queue;
  return new Promise<T>((resolve, reject) =>
    q.waiting.push({ job: job as WriteJob<unknown>, resolve: resolve as (value: unknown) => void, reject }),
  );
}

async function drain(key: string, queue: Queue): Promise<void> {
  while (queue.waiting.length) await lockTurn(queue);
  queues.delete(key);
}

/** One turn of the tab's lock: earlier writes settled, the tab read once, then batches while requests wait. */
async function lockTurn(queue: Queue): Promise<void> {
  const { sheet, model } = queue;
  try {
    await withLock(tabLockKey(sheet.id, model.name), async () => {
      await settlePending(sheet, model);
      let data: TabData | undefined;
      for (let n = 0; n < BATCHES_PER_TURN && queue.waiting.length; n++) {
        const jobs = queue.waiting.splice(0, queue.kind.max);
        if (!data) {
          try {
            data = await fetchTab(sheet, model);
          } catch (err) {
            for (const w of jobs) rejectWith(w, () => (w.job.readFailed ? w.job.readFailed(err) : err));
            return;
          }
        }
        const batch = await writeBatch(queue, data, jobs);
        queue.waiting.unshift(...batch.deferred);
        // Without a copy from the write's own answer, the next batch starts a new turn (which settles and reads).
        if (!batch.after) return;
        data = batch.after;
      }
    });
  } catch (err) {
    // The lock, the store or an earlier write not settled: every request waiting fails alike.
    for (const w of queue.waiting.splice(0)) w.reject(err);
  }
}

function rejectWith(w: Waiting, error: () => unknown): void {
  try {
    w.reject(error());
  } catch (err) {
    w.reject(err);
  }
}
