// The plan's four windows with the use of each right now.
import { LocalTime } from "@/app/components/local-time";
import type { UsageReport } from "@/lib/usage/usage-report";

const LABEL = {
  burst: "Last 60 seconds",
  hour: "This hour (UTC)",
  day: "Today (UTC)",
  month: "Billing period",
} as const;
const n = (x: number) => x.toLocaleString("en-US");

export function WindowMeters({ windows }: { windows: NonNullable<UsageReport["windows"]> }) {
  return (
    <ul className="grid gap-4 sm:grid-cols-2">
      {windows.map((w) => {
        const share = Math.min(100, (w.used / w.limit) * 100);
        return (
          <li
            key={w.name}
            data-testid={`window-${w.name}`}
            className="rounded-md border border-slate-200 p-4 dark:border-slate-800"
          >
            <div className="flex items-baseline justify-between text-sm">
              <span className="font-medium">{LABEL[w.name]}</span>
              <span className="font-mono" data-testid="window-use">
                {n(w.used)} / {n(w.limit)}
              </span>
            </div>
            <div
              className="mt-2 h-2 rounded bg-slate-100 dark:bg-slate-800"
              role="meter"
              aria-valuemin={0}
              aria-valuemax={w.limit}
              aria-valuenow={w.used}
              aria-label={LABEL[w.name]}
            >
              <div
                className={`h-2 rounded ${share >= 100 ? "bg-red-500" : share >= 80 ? "bg-amber-500" : "bg-emerald-500"}`}
                style={{ width: `${share}%` }}
              />
            </div>
            <p className="mt-1 text-xs text-slate-500 dark:text-slate-400">
              {n(w.remaining)} left · resets <LocalTime at={w.reset_at * 1000} shape="minute" />
            </p>
          </li>
        );
      })}
    </ul>
  );
}
