// OpenTelemetry, off unless OTEL_EXPORTER_OTLP_ENDPOINT is set: @vercel/otel registers the SDK
// the way Next.js expects (its own spans for requests, routes and rendering, and the calls the
// service makes), exporting over OTLP/HTTP. Every span passes the redaction first (no key, token
// or configured secret leaves in a trace). Loaded only when asked for.
import { tracingSettings } from "@/lib/env";

/** Starts tracing when configured; answers whether it did. */
export async function startTracing(): Promise<boolean> {
  const settings = tracingSettings();
  if (!settings) return false;
  const [{ registerOTel }, { RedactingSpanProcessor }] = await Promise.all([
    import("@vercel/otel"),
    import("./span-redaction"),
  ]);
  // First in the list: the exporters "auto" stands for see each span only after it is cleaned.
  registerOTel({ serviceName: settings.serviceName, spanProcessors: [new RedactingSpanProcessor(), "auto"] });
  return true;
}
