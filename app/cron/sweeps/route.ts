import { ok } from "@/lib/http/envelope";
import { withCron } from "@/lib/routes/with-operator-token";
import { runSweeps } from "@/lib/cron/tasks";

export const dynamic = "force-dynamic";
export const maxDuration = 60;

// GET /cron/sweeps - the usage roll-up, pending batches and the retention sweep, for a scheduler (vercel.json).
const sweeps = withCron("/cron/sweeps", async () => ok(await runSweeps()));

export { sweeps as GET };
