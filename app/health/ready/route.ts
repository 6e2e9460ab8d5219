import { json, ok } from "@/lib/http/envelope";
import { route } from "@/lib/routes/route";
import { checkReadiness } from "@/lib/health/readiness";

export const dynamic = "force-dynamic";

// GET /health/ready - whether this instance should get traffic (lib/health/readiness.ts).
const ready = route(async () => {
  const { ready, status, reasons, checks } = await checkReadiness();
  const message = reasons.length
    ? `${status === "not_ready" ? "Not ready" : "Ready, degraded"}: ${reasons.join("; ")}.`
    : undefined;
  if (ready) return ok({ status, checks, ...(message ? { message } : {}) });
  return json(
    { success: false, error: "service_unavailable", message, status, checks },
    { status: 503, headers: { "Retry-After": "5" } },
  );
});

export { ready as GET, ready as HEAD };
