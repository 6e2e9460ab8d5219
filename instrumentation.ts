// Runs once when the server starts: webhook deliveries start with it, so a backlog left by a
// restart is sent without waiting for the next change. Not awaited: Next.js waits for register()
// before it answers anything, and the first answer need not wait for the delivery modules.
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  void (async () => {
    const { log, errorFields } = await import("@/lib/log");
    try {
      const { startDelivery } = await import("@/lib/webhooks/deliver");
      await startDelivery();
    } catch (err) {
      log.warn({ ...errorFields(err) }, "webhooks: delivery could not start");
    }
  })();
}
