// Everything a process holds in memory that belongs in the database (usage counts, sheet stats,
// last-used stamps) registers its flush here, so a stopping server can write it all before it
// exits. Kept per process, not per module copy: Next.js bundles routes and instrumentation apart.
import { perProcess } from "@/lib/per-process";

const flushes = perProcess("lifecycle:flushes", () => new Map<string, () => Promise<void>>());

/** Registers (or replaces) the flush of one in-memory batch. */
export function registerFlush(name: string, flush: () => Promise<void>): void {
  flushes.set(name, flush);
}

/** Runs every registered flush; resolves with the names of those that failed. */
export async function flushAll(): Promise<string[]> {
  const entries = [...flushes.entries()];
  const results = await Promise.allSettled(entries.map(([, flush]) => flush()));
  return entries.filter((_, i) => results[i]!.status === "rejected").map(([name]) => name);
}
