import { ok } from "@/lib/http/envelope";
import { route } from "@/lib/routes/route";
import { checkCronSecret, runWebhookDeliveries } from "@/lib/cron/tasks";

export const dynamic = "force-dynamic";
export const maxDuration = 60;

// GET /cron/webhooks - due webhook deliveries and retries, for a scheduler (vercel.json).
const deliveries = route(async ({ req }) => {
  checkCronSecret(req, "/cron/webhooks");
  return ok(await runWebhookDeliveries());
});

export { deliveries as GET };
