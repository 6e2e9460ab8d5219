// The background work as tasks a scheduler calls (the serverless shape: Vercel Cron, see
// vercel.json), instead of the timers and polling workers a long-lived process runs: each call
// does what is due within its budget, then releases what it opened. Safe beside long-lived
// workers and beside each other: deliveries are leased, roll-ups and sweeps are idempotent.
import { config } from "@/lib/env";
import { bearerMatches } from "@/lib/http/bearer";
import { ApiError } from "@/lib/errors";
import { flushAll } from "@/lib/lifecycle/flushes";
import { deliverDueOnce } from "@/lib/webhooks/deliver";
import { stopQueue } from "@/lib/webhooks/queue";
import { pruneOldEvents } from "@/lib/webhooks/retention";

/** What one delivery call may spend: below a function's usual 60 s limit, with room to close. */
const DELIVERY_BUDGET_MS = 45_000;

/** 404 unless CRON_SECRET is set; 401 unless the caller sends it as Vercel Cron does (`Authorization: Bearer`). */
export function checkCronSecret(req: Request, path: string): void {
  const secret = config().env.CRON_SECRET;
  if (!secret) throw new ApiError("not_found", `No route ${req.method} ${path}. See GET /api for the routes.`);
  if (!bearerMatches(req, secret)) throw new ApiError("unauthorized", `${path} needs Authorization: Bearer <CRON_SECRET>.`);
}

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
