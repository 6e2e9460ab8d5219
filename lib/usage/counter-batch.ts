// Counters added up in memory and written in one batch every USAGE_FLUSH_MS, after the answers
// (usage records, per-sheet stats). One batch per name and process: Next.js bundles route
// handlers and pages separately, so module state would be split and a page could not flush what
// the routes counted. A failed write keeps its counts for the next flush.
import { config } from "@/lib/env";
import { errorFields, log } from "@/lib/log";
import { registerFlush } from "@/lib/lifecycle/flushes";
import { metrics } from "@/lib/observability/metrics";
import { perProcess } from "@/lib/per-process";

type Counts = Record<string, number>;

export interface CounterBatch<K extends Record<string, string>, C extends Counts> {
  add(key: K, counts: Partial<C>): void;
  /** Writes the pending counts now (also before they are read, so reads include them). */
  flush(): Promise<void>;
}

interface State {
  pending: Map<string, Record<string, string | number>>;
  timer?: NodeJS.Timeout;
  flushing?: Promise<void>;
}

export function counterBatch<K extends Record<string, string>, C extends Counts>(
  name: string,
  zero: C,
  write: (rows: (K & C)[]) => Promise<void>,
): CounterBatch<K, C> {
  const s = perProcess<State>(`counter-batch:${name}`, () => ({ pending: new Map() }));

  const merge = (key: Record<string, string>, counts: Partial<Counts>) => {
    const id = Object.values(key).join("\u0000");
    const row = s.pending.get(id) ?? { ...key, ...zero };
    for (const [field, n] of Object.entries(counts)) row[field] = Number(row[field] ?? 0) + (n ?? 0);
    s.pending.set(id, row);
  };
  const schedule = () => {
    s.timer ??= setTimeout(() => void flush(), config().env.USAGE_FLUSH_MS);
    s.timer.unref?.();
  };
  const flush = async (): Promise<void> => {
    if (s.timer) clearTimeout(s.timer);
    s.timer = undefined;
    // One write at a time: a second caller waits for it, then writes what arrived meanwhile.
    while (s.flushing) await s.flushing;
    if (!s.pending.size) return;
    const rows = [...s.pending.values()] as (K & C)[];
    s.pending.clear();
    s.flushing = write(rows)
      .catch((err: unknown) => {
        for (const row of rows as Record<string, string | number>[]) {
          const key = Object.fromEntries(Object.entries(row).filter(([f]) => !(f in zero))) as Record<string, string>;
          merge(key, Object.fromEntries(Object.keys(zero).map((f) => [f, Number(row[f])])));
        }
        metrics.databaseError({ during: "batch" });
        log.warn(
          { batch: name, rows: rows.length, ...errorFields(err) },
          "batch: write failed, counts kept for the next flush",
        );
        schedule();
      })
      .finally(() => {
        s.flushing = undefined;
      });
    await s.flushing;
  };
  // A stopping server writes what is pending before it exits (lib/lifecycle/shutdown.ts).
  registerFlush(`counter-batch:${name}`, flush);
  return {
    add: (key, counts) => {
      merge(key, counts);
      schedule();
    },
    flush,
  };
}
