import { ok } from "@/lib/http/envelope";
import { route } from "@/lib/routes/route";
import { checkCronSecret, runSweeps } from "@/lib/cron/tasks";

export const dynamic = "force-dynamic";
export const maxDuration = 60;

// GET /cron/sweeps - the usage roll-up, pending batches and the retention sweep, for a scheduler (vercel.json).
const sweeps = route(async ({ req }) => {
  checkCronSecret(req, "/cron/sweeps");
  return ok(await runSweeps());
});

export { sweeps as GET };
