import { ok } from "@/lib/http/envelope";
import { route } from "@/lib/routes/route";

export const dynamic = "force-dynamic";

// GET /health/live - the process answers (a liveness probe: restart it when this fails). Checks
// nothing else on purpose: a database outage must not restart every instance.
const live = route(() => ok({ status: "live" }));

export { live as GET, live as HEAD };
