// Runs once when the server starts: the envelope for requests Next.js cannot route, and webhook
// deliveries, begun a moment late so the first answers get the CPU (docs/architecture.md).
const DELIVERY_START_DELAY_MS = 2_000;

export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  // OpenTelemetry first, when configured (lib/observability/tracing.ts), so it sees everything after.
  const { startTracing } = await import("@/lib/observability/tracing");
  await startTracing();
  // Requests Next.js cannot route (TRACE, unknown methods, undecodable paths) get the envelope.
  const { guardRawRequests } = await import("@/lib/http/raw-requests");
  guardRawRequests();
  // SIGTERM drains the requests under way and writes every batch before the process exits.
  const { installServerShutdown } = await import("@/lib/lifecycle/server-stop");
  installServerShutdown();
  // Not awaited: the first answers do not wait for it; a wrong setting stops the process within moments.
  void import("@/lib/lifecycle/start-checks").then(({ checkAtStart }) => checkAtStart());
  setTimeout(() => {
    void (async () => {
      const { log, errorFields } = await import("@/lib/log");
      try {
        const { config } = await import("@/lib/env");
        if (!config().env.WEB_RUNS_WORKER) return;
        const { startDelivery } = await import("@/lib/webhooks/deliver");
        await startDelivery();
      } catch (err) {
        log.warn({ ...errorFields(err) }, "webhooks: delivery could not start");
      }
    })();
  }, DELIVERY_START_DELAY_MS).unref();
}
