// OpenTelemetry, off unless OTEL_EXPORTER_OTLP_ENDPOINT is set: @vercel/otel registers the SDK
// the way Next.js expects (its own spans for requests, routes and rendering, and the fetch calls
// the service makes), exporting over OTLP/HTTP. Loaded only when asked for, so a server without
// it pays nothing at start.
import { tracingSettings } from "@/lib/env";

/** Starts tracing when configured; answers whether it did. */
export async function startTracing(): Promise<boolean> {
  const settings = tracingSettings();
  if (!settings) return false;
  const { registerOTel } = await import("@vercel/otel");
  registerOTel({ serviceName: settings.serviceName });
  return true;
}
