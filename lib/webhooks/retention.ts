// Change events and their delivery logs are kept EVENT_RETENTION_DAYS (30 by default), so a
// busy sheet's history does not grow without end. Removing an event removes its deliveries and
// their attempts (foreign keys cascade). An event an endpoint still waits to receive (a pending
// delivery, e.g. of an endpoint disabled for longer than that) is kept until it is sent or given up.
import { deleteEventsBefore } from "@/db/queries/change-events";
import { config } from "@/lib/env";
import { errorFields, log } from "@/lib/log";
import { metrics } from "@/lib/observability/metrics";
import { perProcess } from "@/lib/per-process";

const BATCH = 5_000;
const EVERY_MS = 60 * 60 * 1000;
/** The first sweep waits until the server's first answers are out of the way. */
const FIRST_AFTER_MS = 60 * 1000;

/** Removes events older than the retention period, in batches so no statement holds locks long. Returns how many. */
export async function pruneOldEvents(now = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - config().env.EVENT_RETENTION_DAYS * 86_400_000);
  let removed = 0;
  for (;;) {
    const count = await deleteEventsBefore({ cutoff, batch: BATCH });
    removed += count;
    if (count < BATCH) return removed;
  }
}

const sweeper = perProcess("webhooks:retention", () => ({ timer: undefined as NodeJS.Timeout | undefined }));

/** Sweeps a minute after start, then hourly (idempotent; any number of instances may sweep). */
export function startRetentionSweeps(): void {
  if (sweeper.timer) return;
  const sweep = () => {
    pruneOldEvents()
      .then((n) => n && log.info({ removed: n }, "webhooks: old change events removed"))
      .catch((err: unknown) => {
        metrics.databaseError({ during: "webhooks" });
        log.warn({ ...errorFields(err) }, "webhooks: removing old change events failed");
      });
  };
  sweeper.timer = setTimeout(() => {
    sweep();
    sweeper.timer = setInterval(sweep, EVERY_MS);
    sweeper.timer.unref();
  }, FIRST_AFTER_MS);
  sweeper.timer.unref();
}
