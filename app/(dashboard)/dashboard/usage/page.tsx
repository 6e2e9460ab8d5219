import type { Metadata } from "next";
import { LocalTime } from "@/app/components/local-time";
import { requireUser } from "@/lib/auth/session";
import { config } from "@/lib/env";
import { accountLimits } from "@/lib/limits/accounts";
import { STATUS_CLASSES } from "@/lib/usage/metering";
import { currentWindows, usageReport, usageSeries } from "@/lib/usage/usage-report";
import { PlanPanel } from "../plan-panel";
import { BarChart, type Series } from "./bar-chart";
import { WindowMeters } from "./window-meters";

export const metadata: Metadata = { title: "Usage · SheetAPI" };

export const dynamic = "force-dynamic";

/** One instant for the whole report, so the live figures and the charts agree. */
const requestTime = () => Date.now();

const CLASS_COLORS = {
  "2xx": "#10b981",
  "3xx": "#0ea5e9",
  "4xx": "#f59e0b",
  "429": "#f97316",
  "5xx": "#ef4444",
} as const;
const KEY_COLORS = ["#6366f1", "#14b8a6", "#f43f5e", "#eab308", "#8b5cf6", "#06b6d4", "#84cc16", "#ec4899"];
const n = (x: number) => x.toLocaleString("en-US");

export default async function UsagePage() {
  const user = await requireUser("/dashboard/usage");
  const account = await accountLimits(user.id);
  const now = requestTime();
  const windows = await currentWindows(account, now);
  const [report, series] = await Promise.all([usageReport(account, now, windows), usageSeries(account, now)]);
  const p = report.current_period;
  const recorded = series.byKey.reduce((sum, k) => sum + k.total, 0);

  const byClass: Series[] = STATUS_CLASSES.map((c) => ({
    label: c === "429" ? "429 (not counted)" : c === "5xx" ? "5xx (not counted)" : c,
    color: CLASS_COLORS[c],
    values: Object.fromEntries(series.days.map((d) => [d, series.byClass[d]?.[c] ?? 0])),
  }));
  const byKey: Series[] = series.byKey.map((k, i) => ({
    label: `${k.name} · ${k.sheet} (${k.prefix}…)`,
    color: KEY_COLORS[i % KEY_COLORS.length]!,
    values: k.perDay,
  }));

  const stats = [
    ["Requests used", n(p.requests_used), "usage-requests-used"],
    ["Limit this period", n(p.requests_limit), "usage-requests-limit"],
    ["Used", `${p.percentage_used}%`, "usage-percentage"],
    ["Daily average", n(report.daily_average), "usage-daily-average"],
    ["Projected", n(report.projected_usage), "usage-projected"],
  ] as const;

  return (
    <div className="space-y-8">
      <div>
        <h1 className="text-2xl font-bold">Usage</h1>
        <p className="mt-1 text-sm text-slate-600 dark:text-slate-400" data-testid="usage-period">
          Billing period <LocalTime at={p.start} shape="minute" /> to <LocalTime at={p.end} shape="minute" /> ·{" "}
          {report.plan.name} plan · shared by all your keys and sheets
        </p>
      </div>
      <dl className="grid grid-cols-2 gap-4 sm:grid-cols-5">
        {stats.map(([label, value, testId]) => (
          <div key={testId} className="rounded-md border border-slate-200 p-4 dark:border-slate-800">
            <dt className="text-xs text-slate-500 dark:text-slate-400">{label}</dt>
            <dd className="mt-1 font-mono text-lg" data-testid={testId}>
              {value}
            </dd>
          </div>
        ))}
      </dl>
      {config().limitStore.kind === "memory" && config().env.RATE_LIMITS === "on" && recorded > p.requests_used && (
        <p
          role="note"
          data-testid="usage-memory-store"
          className="rounded-md bg-slate-50 p-3 text-sm text-slate-700 dark:bg-slate-900 dark:text-slate-300"
        >
          This server keeps its limit counters in memory (the embedded defaults), saved to its data directory every few
          seconds: a stop that could not save them (a crash, a data directory started afresh) lost some, so the figures
          above count fewer than the usage records below, which cover the whole period ({n(recorded)} counted requests).
          With Upstash configured, the counters outlive anything that happens to a server.
        </p>
      )}
      {windows ? (
        <WindowMeters windows={report.windows!} />
      ) : (
        <p
          role="alert"
          className="rounded-md bg-amber-50 p-3 text-sm text-amber-900 dark:bg-amber-950 dark:text-amber-200"
        >
          The rate-limit store cannot be reached: figures come from the usage records, and the live windows are not
          shown.
        </p>
      )}
      <section className="space-y-8 rounded-lg border border-slate-200 p-6 dark:border-slate-800">
        <BarChart
          testId="chart-by-class"
          title="Requests per day by status (429 and 5xx answers do not count toward limits)"
          days={series.days}
          series={byClass}
        />
        {byKey.length > 0 ? (
          <BarChart
            testId="chart-by-key"
            title="Counted requests per day by API key"
            days={series.days}
            series={byKey}
          />
        ) : (
          <p className="text-sm text-slate-500 dark:text-slate-400">No requests with an API key in this period yet.</p>
        )}
        {series.byKey.length > 0 && (
          <table className="w-full text-left text-sm" data-testid="usage-by-key">
            <thead className="text-xs text-slate-500 dark:text-slate-400">
              <tr>
                <th className="py-1 font-normal">Key</th>
                <th className="py-1 text-right font-normal">Counted requests this period</th>
              </tr>
            </thead>
            <tbody>
              {series.byKey.map((k) => (
                <tr key={k.keyId} className="border-t border-slate-100 dark:border-slate-800">
                  <td className="py-1.5 [overflow-wrap:anywhere]">
                    {k.name}{" "}
                    <span className="text-xs text-slate-500 dark:text-slate-400" data-testid="usage-key-sheet">
                      · {k.sheet}
                    </span>{" "}
                    <span className="font-mono text-xs text-slate-500 dark:text-slate-400">{k.prefix}…</span>
                    {k.revoked && (
                      <span
                        className="ml-2 rounded bg-red-100 px-2 py-0.5 text-xs text-red-800 dark:bg-red-950 dark:text-red-200"
                        data-testid="usage-key-revoked"
                      >
                        revoked
                      </span>
                    )}
                  </td>
                  <td className="py-1.5 text-right font-mono">{n(k.total)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
      <PlanPanel userId={user.id} />
      <p className="text-xs text-slate-500 dark:text-slate-400">
        Daily average: requests used divided by the days elapsed in the period (at least one). Projected: the daily
        average over the whole period. Charts come from usage records written every few seconds; the figures above are
        live.
      </p>
    </div>
  );
}
