// GET /health: the database, the limit store and the sheets backend, each with a bounded check.
// Public, so it says what runs and whether it answers, nothing more: volumes, the webhook backlog
// and Google's recent figures are in /metrics, behind its token; no address is named.
import { pingDatabase } from "@/db/queries/database";
import { config } from "@/lib/env";
import { getLimitStore } from "@/lib/store/store";
import { recentGoogleOutcomes, serviceAccountSignInFailure } from "@/lib/google/outcomes";

export interface CheckResult {
  status: "ok" | "down";
  latency_ms: number;
  detail: string;
}

/** What runs behind each check: the embedded stand-ins are named as such, per component. */
export type Kinds = {
  database: "postgres" | "pglite";
  limit_store: "upstash" | "redis" | "memory";
  sheets_backend: "google" | "emulator";
};

export interface HealthReport {
  healthy: boolean;
  /** Everything answers, but Google has refused or failed half of this instance's recent calls. */
  degraded: boolean;
  checks: {
    database: CheckResult & { kind: Kinds["database"] };
    limit_store: CheckResult & { kind: Kinds["limit_store"] };
    sheets_backend: Omit<CheckResult, "status"> & {
      status: CheckResult["status"] | "degraded";
      kind: Kinds["sheets_backend"];
    };
  };
}

const CHECK_TIMEOUT_MS = 2000;

export async function timed(detail: string, probe: () => Promise<unknown>): Promise<CheckResult> {
  const started = performance.now();
  try {
    await Promise.race([
      probe(),
      new Promise((_, reject) =>
        setTimeout(() => reject(new Error(`no answer within ${CHECK_TIMEOUT_MS} ms`)), CHECK_TIMEOUT_MS).unref(),
      ),
    ]);
    return { status: "ok", latency_ms: Math.round(performance.now() - started), detail };
  } catch (err) {
    return {
      status: "down",
      latency_ms: Math.round(performance.now() - started),
      detail: `${detail}: ${(err as Error).message}`,
    };
  }
}

/**
 * Google's discovery document needs no credentials and costs no Sheets quota; the service
 * account's last sign-in says whether the service's own credentials still work.
 */
async function probeSheetsBackend(rootUrl: string): Promise<void> {
  const res = await fetch(`${rootUrl}/$discovery/rest?version=v4`, { signal: AbortSignal.timeout(CHECK_TIMEOUT_MS) });
  if (!res.ok) throw new Error(`HTTP ${res.status}`);
  await res.body?.cancel();
  const signIn = serviceAccountSignInFailure();
  if (signIn)
    throw new Error(
      `a service account cannot sign in to Google (${signIn}); check GOOGLE_SERVICE_ACCOUNT_JSON / GOOGLE_SERVICE_ACCOUNTS and the server clock`,
    );
}

const STORE_DETAIL: Record<Kinds["limit_store"], string> = {
  memory: "in-process memory, this instance's own",
  upstash: "Upstash REST API",
  redis: "Redis",
};

export async function checkHealth(): Promise<HealthReport> {
  const cfg = config();
  const store = getLimitStore();
  const sheetsRoot = cfg.google.rootUrl ?? "https://sheets.googleapis.com";
  const [database, limit_store, sheets_backend] = await Promise.all([
    timed(cfg.database.kind === "postgres" ? "Postgres" : "PGlite, embedded under DATA_DIR", pingDatabase),
    timed(STORE_DETAIL[store.kind], () => store.ping()),
    timed(cfg.google.emulated ? "emulators/google, not Google" : "Google Sheets API", () =>
      probeSheetsBackend(sheetsRoot),
    ),
  ]);
  const degraded = recentGoogleOutcomes().degraded;
  // Google reachable but failing most calls is "degraded", not "down": the service still answers
  // (cached and stale reads, the dashboard), and a 503 would have load balancers take every
  // instance out of rotation for an outage none of them can fix.
  const sheetsStatus: HealthReport["checks"]["sheets_backend"]["status"] =
    sheets_backend.status === "ok" && degraded ? "degraded" : sheets_backend.status;
  const checks: HealthReport["checks"] = {
    database: { ...database, kind: cfg.database.kind },
    limit_store: { ...limit_store, kind: store.kind },
    sheets_backend: { ...sheets_backend, status: sheetsStatus, kind: cfg.google.emulated ? "emulator" : "google" },
  };
  return { healthy: Object.values(checks).every((c) => c.status !== "down"), degraded, checks };
}
