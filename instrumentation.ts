// Runs once when the server starts: webhook deliveries start with it, so a backlog left by a
// restart is sent without waiting for the next change.
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { startDelivery } = await import("@/lib/webhooks/deliver");
  const { log, errorFields } = await import("@/lib/log");
  startDelivery().catch((err: unknown) => log.warn({ ...errorFields(err) }, "webhooks: delivery could not start"));
}
