// GET /metrics: the process's metrics for Prometheus, with the webhook backlog read at scrape
// time. Off unless METRICS_TOKEN is set (404), and only with that token (with-operator-token.ts):
// route names, volumes and error rates are not for the public.
import { deliveryProgress } from "@/lib/webhooks/endpoints";
import { renderMetrics } from "@/lib/observability/metrics";

const BACKLOG_TIMEOUT_MS = 1_000;

export const METRICS_HEADERS = {
  "Content-Type": "text/plain; version=0.0.4; charset=utf-8",
  "Cache-Control": "no-store",
};

export async function metricsText(): Promise<string> {
  const backlog = await Promise.race([
    deliveryProgress().catch(() => null),
    new Promise<null>((resolve) => setTimeout(() => resolve(null), BACKLOG_TIMEOUT_MS).unref()),
  ]);
  return renderMetrics([
    {
      name: "sheetapi_webhook_deliveries_pending",
      help: "Webhook deliveries waiting to be sent (all instances: read from the database).",
      value: backlog?.pending ?? null,
    },
    {
      name: "sheetapi_webhook_deliveries_due",
      help: "Pending webhook deliveries whose time has come.",
      value: backlog?.due ?? null,
    },
    {
      name: "sheetapi_webhook_deliveries_failed",
      help: "Webhook deliveries given up on.",
      value: backlog?.failed ?? null,
    },
    {
      name: "sheetapi_webhook_oldest_pending_seconds",
      help: "Age of the oldest pending webhook delivery.",
      value: backlog?.oldest_pending_seconds ?? 0,
    },
  ]);
}
