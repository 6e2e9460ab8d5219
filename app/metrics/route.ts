import { route } from "@/lib/routes/route";
import { checkMetricsToken, metricsText } from "@/lib/routes/metrics-endpoint";

export const dynamic = "force-dynamic";

// GET /metrics - Prometheus' text format, behind METRICS_TOKEN (lib/routes/metrics-endpoint.ts).
const metrics = route(async ({ req }) => {
  checkMetricsToken(req);
  return new Response(await metricsText(), { headers: { "Content-Type": "text/plain; version=0.0.4; charset=utf-8", "Cache-Control": "no-store" } });
});

export { metrics as GET };
