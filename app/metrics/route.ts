import { METRICS_HEADERS, metricsText } from "@/lib/routes/metrics-endpoint";
import { withMetricsToken } from "@/lib/routes/with-operator-token";

export const dynamic = "force-dynamic";

// GET /metrics - Prometheus' text format, behind METRICS_TOKEN (lib/routes/with-operator-token.ts).
const metrics = withMetricsToken(async () => new Response(await metricsText(), { headers: METRICS_HEADERS }));

export { metrics as GET };
