// This process's metrics in Prometheus' text format (GET /metrics, behind METRICS_TOKEN). Kept
// small on purpose: counters and one histogram, held once per process (Next.js bundles routes
// apart), fed by one-line hooks where the service already logs or counts. Each instance exposes
// its own; Prometheus sums them across instances.
import { perProcess } from "@/lib/per-process";

type Labels = Record<string, string | number>;

interface Family {
  help: string;
  type: "counter" | "histogram" | "gauge";
  /** Serialised label set -> value (counters, gauges) or bucket counts, sum and count (histograms). */
  series: Map<string, { labels: Labels; value: number; buckets?: number[]; sum?: number }>;
}

/**
 * Series per family at most: a path no route serves is reported as itself (its own template), so
 * a client requesting random paths must not grow the metrics without end; past this, new label
 * sets are counted as route "(other)".
 */
const MAX_SERIES = 1_000;
const OTHER = "(other)";

/** Request durations, in seconds: from a cached read (~1 ms) to a write at its bound (~60 s). */
const BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

const families = perProcess("observability:metrics", () => new Map<string, Family>());

function family(name: string, type: Family["type"], help: string): Family {
  let f = families.get(name);
  if (!f) families.set(name, (f = { help, type, series: new Map() }));
  return f;
}

const keyOf = (labels: Labels) => JSON.stringify(Object.entries(labels).sort(([a], [b]) => (a < b ? -1 : 1)));

function counter(name: string, help: string) {
  return (labels: Labels = {}, n = 1) => {
    const f = family(name, "counter", help);
    const key = keyOf(labels);
    const s = f.series.get(key) ?? { labels, value: 0 };
    s.value += n;
    f.series.set(key, s);
  };
}

const requestCount = counter(
  "sheetapi_http_requests_total",
  "HTTP requests answered, by route template, method and status.",
);

/** `route`, or "(other)" once the family is full and this route is not in it yet. */
function boundedRoute(name: string, route: string, labels: Labels): string {
  const f = families.get(name);
  return !f || f.series.size < MAX_SERIES || f.series.has(keyOf({ ...labels, route })) ? route : OTHER;
}

export const metrics = {
  request(path: string, method: string, status: number, seconds: number): void {
    const route = boundedRoute("sheetapi_http_requests_total", path, { method, status });
    requestCount({ route, method, status });
    const f = family(
      "sheetapi_http_request_duration_seconds",
      "histogram",
      "Time to answer, by route template and method.",
    );
    const labels = { route, method };
    const key = keyOf(labels);
    const s = f.series.get(key) ?? { labels, value: 0, buckets: BUCKETS.map(() => 0), sum: 0 };
    s.value++;
    s.sum! += seconds;
    BUCKETS.forEach((le, i) => seconds <= le && s.buckets![i]!++);
    f.series.set(key, s);
  },
  googleCall: counter(
    "sheetapi_google_calls_total",
    "Google API calls, by method (spreadsheets.get, drive.files.get, ...), kind (read, write; drive for access re-checks) and outcome (ok, rate_limited, failed, held_back).",
  ),
  quotaGuard: counter(
    "sheetapi_google_quota_guard_total",
    "Calls the quota guard made wait for a free slot (held) or refused with 503 (refused).",
  ),
  read: counter(
    "sheetapi_sheet_reads_total",
    "Row reads by how the tab was served: HIT (cache), MISS (from Google), STALE (last good copy).",
  ),
  webhookAttempt: counter(
    "sheetapi_webhook_attempts_total",
    "Webhook delivery attempts, by outcome (delivered, failed).",
  ),
  storeError: counter(
    "sheetapi_limit_store_errors_total",
    "Limit store calls that failed or timed out, by store operation (authorize, ledger.add, ...).",
  ),
  databaseError: counter(
    "sheetapi_database_errors_total",
    "Database work that failed: requests answered 503 because the database was unreachable (request), batch writes (batch), ledger roll-ups (rollup), webhook deliveries and sweeps (webhooks), change events not stored (events).",
  ),
};

const escape = (v: string | number) => String(v).replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n");
const labelText = (labels: Labels, extra?: [string, string]) => {
  const parts = Object.entries(labels).map(([k, v]) => `${k}="${escape(v)}"`);
  if (extra) parts.push(`${extra[0]}="${extra[1]}"`);
  return parts.length ? `{${parts.join(",")}}` : "";
};

/** The exposition text; `gauges` are values read at scrape time (the webhook backlog). */
export function renderMetrics(gauges: { name: string; help: string; value: number | null }[] = []): string {
  const lines: string[] = [];
  for (const [name, f] of families) {
    lines.push(`# HELP ${name} ${f.help}`, `# TYPE ${name} ${f.type}`);
    for (const s of f.series.values()) {
      if (f.type !== "histogram") {
        lines.push(`${name}${labelText(s.labels)} ${s.value}`);
        continue;
      }
      BUCKETS.forEach((le, i) =>
        lines.push(`${name}_bucket${labelText(s.labels, ["le", String(le)])} ${s.buckets![i]}`),
      );
      lines.push(
        `${name}_bucket${labelText(s.labels, ["le", "+Inf"])} ${s.value}`,
        `${name}_sum${labelText(s.labels)} ${s.sum}`,
        `${name}_count${labelText(s.labels)} ${s.value}`,
      );
    }
  }
  for (const g of gauges)
    if (g.value !== null) lines.push(`# HELP ${g.name} ${g.help}`, `# TYPE ${g.name} gauge`, `${g.name} ${g.value}`);
  return `${lines.join("\n")}\n`;
}
