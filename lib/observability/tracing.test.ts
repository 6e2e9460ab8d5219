// Tracing on, as production runs it (the OTLP exporter @vercel/otel picks, to a loopback receiver):
// a public-sheet read, a Google that cannot be reached and spans made the way Next.js makes them
// export no configured secret, no `?key=` and no token in a query string.
import { createServer, type Server } from "node:http";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SpanKind, trace, type ProxyTracerProvider } from "@opentelemetry/api";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { startGoogleEmulator, type GoogleEmulator } from "@/emulators/google/server";
import { DEMO_SPREADSHEET_ID } from "@/emulators/google/seed";

const SECRETS = {
  GOOGLE_API_KEY: "AIzaSyTraceTestKey0123456789abcdefghijk",
  GOOGLE_CLIENT_SECRET: "GOCSPX-trace-test-client-secret-42",
  STRIPE_SECRET_KEY: "sk_test_traceTestStripeSecret0123456789",
  STRIPE_WEBHOOK_SECRET: "whsec_traceTestWebhookSecret0123456789",
  AUTH_SECRET: "trace-test-auth-secret-0123456789abcdef",
  ENCRYPTION_KEY: "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef",
  UPSTASH_REDIS_REST_TOKEN: "AXtraceTestUpstashToken0123456789",
  METRICS_TOKEN: "trace-test-metrics-token-0123456789",
  CRON_SECRET: "trace-test-cron-secret-0123456789",
};

let google: GoogleEmulator;
let receiver: Server;
const exported: Buffer[] = [];

beforeAll(async () => {
  google = await startGoogleEmulator({ apiKeys: [SECRETS.GOOGLE_API_KEY] });
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      exported.push(Buffer.concat(chunks));
      res.writeHead(200, { "content-type": "application/x-protobuf" }).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  const { port } = receiver.address() as { port: number };
  vi.stubEnv("DATA_DIR", mkdtempSync(join(tmpdir(), "sheetapi-trace-")));
  vi.stubEnv("GOOGLE_API_ROOT_URL", google.url);
  vi.stubEnv("DATABASE_URL", "");
  vi.stubEnv("UPSTASH_REDIS_REST_URL", "");
  vi.stubEnv("GOOGLE_QUOTA_PER_IDENTITY_MINUTE", "1000000");
  vi.stubEnv("GOOGLE_QUOTA_PER_PROJECT_MINUTE", "1000000");
  for (const [name, value] of Object.entries(SECRETS)) vi.stubEnv(name, value);
  for (const plan of ["STARTER", "PROFESSIONAL", "BUSINESS"])
    vi.stubEnv(`STRIPE_PRICE_${plan}`, `price_${plan.toLowerCase()}`);
  vi.stubEnv("OTEL_EXPORTER_OTLP_ENDPOINT", `http://127.0.0.1:${port}`);
});
afterAll(async () => {
  vi.unstubAllEnvs();
  await google?.stop();
  await new Promise((resolve) => receiver?.close(resolve));
});

it("exports spans of a public-sheet read without the API key or any other configured secret", async () => {
  const { startTracing } = await import("./tracing");
  expect(await startTracing()).toBe(true);

  // The service's own path for a public sheet: the API key goes in the URL (`?key=`).
  const { withGoogle } = await import("@/lib/sheets/sheet-access");
  const sheet = { id: DEMO_SPREADSHEET_ID, access: "public" as const, refreshTokenCiphertext: null };
  const read = await withGoogle(sheet, "spreadsheets.values.get", ({ sheets }) =>
    sheets.spreadsheets.values.get({ spreadsheetId: DEMO_SPREADSHEET_ID, range: "Products" }),
  );
  expect(read.data.values?.[1]?.[1]).toBe("Desk lamp");

  // Google unreachable: the network error's message (recorded on the span) holds the URL.
  const { config } = await import("@/lib/env");
  const { createGoogleClients } = await import("@/lib/google/clients");
  const down = createGoogleClients({ ...config().google, rootUrl: "http://127.0.0.1:1" }, { kind: "apiKey" });
  await expect(down.sheets.spreadsheets.get({ spreadsheetId: DEMO_SPREADSHEET_ID })).rejects.toThrow(/ECONNREFUSED/);

  // Spans as Next.js names them: its own fetch spans and the request's target with its query.
  const tracer = trace.getTracer("next.js");
  const url = `${google.url}/v4/spreadsheets/${DEMO_SPREADSHEET_ID}?fields=sheets&key=${SECRETS.GOOGLE_API_KEY}`;
  tracer
    .startSpan(`fetch GET ${url}`, {
      kind: SpanKind.CLIENT,
      attributes: { "http.url": url, "next.span_name": `fetch GET ${url}` },
    })
    .end();
  tracer
    .startSpan("GET /auth/callback/google", {
      kind: SpanKind.SERVER,
      attributes: { "http.target": "/auth/callback/google?code=4/0AeanS0secretcode&state=s1&access_token=ya29.secret" },
    })
    .end();
  const failing = tracer.startSpan("limit store call");
  failing.recordException(new Error(`refused Authorization: Bearer ${SECRETS.UPSTASH_REDIS_REST_TOKEN}`));
  failing.setStatus({
    code: 2,
    message: `Stripe refused ${SECRETS.STRIPE_SECRET_KEY}; metrics ${SECRETS.METRICS_TOKEN}`,
  });
  failing.setAttribute(
    "detail",
    [
      SECRETS.CRON_SECRET,
      SECRETS.AUTH_SECRET,
      SECRETS.ENCRYPTION_KEY,
      SECRETS.GOOGLE_CLIENT_SECRET,
      SECRETS.STRIPE_WEBHOOK_SECRET,
    ].join(" "),
  );
  failing.end();

  await (
    (trace.getTracerProvider() as ProxyTracerProvider).getDelegate() as { forceFlush?: () => Promise<void> }
  ).forceFlush?.();
  await vi.waitFor(() => expect(exported.length).toBeGreaterThan(0));
  const text = Buffer.concat(exported).toString("latin1");
  // The spans arrived, their URLs kept apart from the credential.
  expect(text).toContain(`/v4/spreadsheets/${DEMO_SPREADSHEET_ID}/values/Products`);
  expect(text).toContain("key=[redacted]");
  expect(text).toContain("ECONNREFUSED");
  expect(text).toContain("code=[redacted]&state=s1&access_token=[redacted]");
  for (const [name, value] of Object.entries(SECRETS))
    expect(text.includes(value), `${name} in an exported span`).toBe(false);
  expect(text).not.toMatch(/secretcode|ya29\.secret/);
});
