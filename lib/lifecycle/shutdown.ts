// A stopping server loses nothing: drain, write every in-memory batch, stop the queue, close the
// database, exit. Replaces Next.js's handler, which exits before any of that (README.md).
import { config } from "@/lib/env";
import { errorFields, log } from "@/lib/log";
import { perProcess } from "@/lib/per-process";
import { drainRequests, trackRequests } from "./drain";
import { flushAll } from "./flushes";

const state = perProcess("lifecycle:shutdown", () => ({
  installed: false,
  stopping: undefined as Promise<void> | undefined,
}));

export interface StopSteps {
  /** Stops background work that writes (the webhook queue); awaited before the final flush. */
  stopWorkers(): Promise<void>;
  closeDatabase(): Promise<void>;
  exit(code: number): void;
}

/** The whole stop, in order; exported for tests. Resolves after `exit` was called. */
export async function stopGracefully(
  signal: string,
  steps: StopSteps,
  drainMs = config().env.SHUTDOWN_DRAIN_MS,
): Promise<void> {
  const started = Date.now();
  log.info({ signal, drain_ms: drainMs }, "stopping: no new connections, finishing requests under way");
  const unanswered = await drainRequests(drainMs);
  if (unanswered) log.warn({ unanswered }, "stopping: requests still unanswered after SHUTDOWN_DRAIN_MS");
  let code = 0;
  try {
    await steps.stopWorkers();
  } catch (err) {
    log.warn({ ...errorFields(err) }, "stopping: the webhook queue did not stop cleanly");
  }
  const failed = await flushAll();
  if (failed.length) {
    code = 1;
    log.error({ batches: failed }, "stopping: these batches could not be written");
  }
  await steps
    .closeDatabase()
    .catch((err: unknown) => log.warn({ ...errorFields(err) }, "stopping: closing the database failed"));
  log.info({ duration_ms: Date.now() - started }, "stopped");
  steps.exit(code);
}

/** Installs the handlers (once per process; the server's instrumentation hook calls it). */
export function installShutdown(steps: StopSteps): void {
  if (state.installed) return;
  state.installed = true;
  trackRequests();
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    // Next.js's handler (installed before this runs) closes the HTTP side and exits at once.
    process.removeAllListeners(signal);
    process.on(signal, () => {
      state.stopping ??= stopGracefully(signal, steps);
    });
  }
}
