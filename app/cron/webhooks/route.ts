import { ok } from "@/lib/http/envelope";
import { withCron } from "@/lib/routes/with-operator-token";
import { runWebhookDeliveries } from "@/lib/cron/tasks";

export const dynamic = "force-dynamic";
export const maxDuration = 60;

// GET /cron/webhooks - due webhook deliveries and retries, for a scheduler (vercel.json).
const deliveries = withCron("/cron/webhooks", async () => ok(await runWebhookDeliveries()));

export { deliveries as GET };
