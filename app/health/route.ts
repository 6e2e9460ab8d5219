import { ok, json } from "@/lib/http/envelope";
import { withPeekedLimits } from "@/lib/routes/peek-limits";
import { route } from "@/lib/routes/route";
import { checkHealth } from "@/lib/health/checks";

export const dynamic = "force-dynamic";

// (any) /health - the state of the database, the limit store and the sheets backend (DECISIONS 21).
// Public: each check says what runs and whether it answers; figures are in /metrics, behind its token.
const health = withPeekedLimits(
  route(async () => {
    const { healthy, degraded, checks } = await checkHealth();
    // Degraded is still 200: the service answers, serving cached or stale reads where it can.
    if (healthy)
      return ok({
        status: degraded ? "degraded" : "ok",
        checks,
        ...(degraded
          ? {
              message:
                "Google Sheets is refusing or failing most recent calls: reads are served from cache (stale within each sheet's bound), writes may fail with 503.",
            }
          : {}),
      });
    const down = Object.entries(checks)
      .filter(([, c]) => c.status === "down")
      .map(([name]) => name);
    // Without the limit store the API still serves reads (DECISIONS 18a): say so.
    const withoutStore =
      checks.limit_store.status === "down"
        ? " Without the limit store, reads are served uncounted and writes are paused until it is back."
        : "";
    return json(
      {
        success: false,
        error: "service_unavailable",
        message: `Unavailable: ${down.join(", ")} down.${withoutStore}`,
        status: "down",
        checks,
      },
      { status: 503, headers: { "Retry-After": "5" } },
    );
  }),
);

export {
  health as GET,
  health as HEAD,
  health as POST,
  health as PUT,
  health as PATCH,
  health as DELETE,
  health as OPTIONS,
};
