// Reads one series out of the service's Prometheus text (lib/observability/metrics.ts): tests
// scrape before and after their traffic and compare.
import { renderMetrics } from "@/lib/observability/metrics";

/**
 * The value of `name` summed over the series whose labels include `labels` (0 when none):
 * `metricValue(text, "sheetapi_sheet_reads_total", { cache: "HIT" })`.
 */
export function metricValue(text: string, name: string, labels: Record<string, string> = {}): number {
  const wanted = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  let sum = 0;
  for (const line of text.split("\n")) {
    const match = /^([a-z_]+)(\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const have = (match[3] ?? "").split(/,(?=[a-z_]+=")/);
    if (wanted.every((w) => have.includes(w))) sum += Number(match[4]);
  }
  return sum;
}

/** This process's value of one metric now. */
export const metricNow = (name: string, labels?: Record<string, string>) => metricValue(renderMetrics(), name, labels);
