// The background work as tasks a scheduler calls (the serverless shape: Vercel Cron, see
// vercel.json), instead of the timers and polling workers a long-lived process runs: each call
// does what is due within its budget, then releases what it opened. Safe beside long-lived
// workers and beside each other: deliveries are leased, roll-ups and sweeps are idempotent.
import { flushAll } from "@/lib/lifecycle/flushes";
import { deliverDueOnce } from "@/lib/webhooks/deliver";
import { stopQueue } from "@/lib/webhooks/queue";
import { pruneOldEvents } from "@/lib/webhooks/retention";

/** What one delivery call may spend: below a function's usual 60 s limit, with room to close. */
const DELIVERY_BUDGET_MS = 45_000;

/** Webhook deliveries and retries that are due. */
export async function runWebhookDeliveries(): Promise<{ streams: number }> {
  try {
    return { streams: await deliverDueOnce(DELIVERY_BUDGET_MS) };
  } finally {
    await stopQueue();
  }
}

/** The usage roll-up and every batch this instance holds, then the retention sweep. */
export async function runSweeps(): Promise<{ removed_events: number; failed_batches: string[] }> {
  const failed = await flushAll();
  return { removed_events: await pruneOldEvents(), failed_batches: failed };
}
