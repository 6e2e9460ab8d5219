import { route } from "@/lib/http/route";
import { checkMetricsToken, METRICS_HEADERS, metricsText } from "@/lib/observability/metrics-endpoint";

export const dynamic = "force-dynamic";

// GET /metrics - Prometheus' text format, behind METRICS_TOKEN (lib/observability/metrics-endpoint.ts).
const metrics = route(async ({ req }) => {
  checkMetricsToken(req);
  return new Response(await metricsText(), { headers: METRICS_HEADERS });
});

export { metrics as GET };
