import { route } from "@/lib/routes/route";
import { checkMetricsToken, METRICS_HEADERS, metricsText } from "@/lib/routes/metrics-endpoint";

export const dynamic = "force-dynamic";

// GET /metrics - Prometheus' text format, behind METRICS_TOKEN (lib/routes/metrics-endpoint.ts).
const metrics = route(async ({ req }) => {
  checkMetricsToken(req);
  return new Response(await metricsText(), { headers: METRICS_HEADERS });
});

export { metrics as GET };
