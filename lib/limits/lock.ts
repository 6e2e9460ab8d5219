// A lock in the limit store, held by one request on any instance: row updates and deletes of a
// tab take turns, so a row number read under the lock still points at the same row when written.
import { randomUUID } from "node:crypto";
import { ApiError } from "@/lib/http/errors";
import { getLimitStore, writesPaused } from "./store";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function withLock<T>(key: string, work: () => Promise<T>, { waitMs = 20_000, holdMs = 30_000 } = {}): Promise<T> {
  const store = getLimitStore();
  const token = randomUUID();
  const deadline = Date.now() + waitMs;
  for (let attempt = 0; ; attempt++) {
    let taken: boolean;
    try {
      taken = await store.tryLock(key, token, holdMs);
    } catch {
      // Writes fail closed without the store (DECISIONS 18a).
      throw writesPaused();
    }
    if (taken) break;
    if (Date.now() >= deadline) {
      throw new ApiError("service_unavailable", "This tab is busy with other writes; retry shortly.", {}, { "Retry-After": "2" });
    }
    await sleep(Math.min(200, 10 + attempt * 10) * (0.5 + Math.random()));
  }
  try {
    return await work();
  } finally {
    await store.unlock(key, token).catch(() => undefined);
  }
}
