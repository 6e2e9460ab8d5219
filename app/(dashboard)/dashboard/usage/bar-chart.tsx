// A stacked bar chart of requests per day, rendered on the server as SVG: no chart library, no
// client JavaScript, readable in light and dark (text and grid use currentColor). Drawn twice, at
// a phone's width and at a wider one, and CSS shows the one that fits: the whole period stays in
// view with labels of a readable size, without scrolling sideways.

export interface Series {
  label: string;
  color: string;
  values: Record<string, number>;
}

const HEIGHT = 220;
const PAD = { left: 44, right: 8, top: 10, bottom: 26 };
/** The phone's drawing (up to 639 px wide) and the wider screens', which tests find days in. */
const SIZES = [
  { width: 360, labels: 4, className: "sm:hidden", marked: false },
  { width: 720, labels: 8, className: "hidden sm:block", marked: true },
] as const;

/** 1, 2, 5 x 10^n: the smallest at or above `max`, so the axis has round numbers. */
function niceMax(max: number): number {
  if (max <= 0) return 1;
  const base = 10 ** Math.floor(Math.log10(max));
  return [1, 2, 5, 10].map((m) => m * base).find((v) => v >= max)!;
}

export function BarChart({
  days,
  series,
  title,
  testId,
}: {
  days: string[];
  series: Series[];
  title: string;
  testId: string;
}) {
  const totals = days.map((d) => series.reduce((sum, s) => sum + (s.values[d] ?? 0), 0));
  return (
    <figure data-testid={testId} className="space-y-2">
      <figcaption className="text-sm font-medium">{title}</figcaption>
      {SIZES.map((size) => (
        <Bars key={size.width} {...size} days={days} series={series} totals={totals} title={title} />
      ))}
      <ul className="flex flex-wrap gap-4 text-xs text-slate-600 dark:text-slate-400">
        {series.map((s) => (
          <li key={s.label} className="flex items-center gap-1.5">
            <span className="inline-block h-2.5 w-2.5 rounded-sm" style={{ background: s.color }} />
            {s.label}
          </li>
        ))}
      </ul>
      {/* A bar's numbers show on hover; touch screens have none, so the days with requests are listed too. */}
      {totals.some(Boolean) && (
        <details className="text-xs text-slate-600 dark:text-slate-400" data-testid={`${testId}-days`}>
          <summary className="cursor-pointer py-1">Requests per day</summary>
          <table className="mt-1">
            <tbody>
              {days.map((day, i) =>
                totals[i] ? (
                  <tr key={day}>
                    <td className="pr-3 font-mono">{day}</td>
                    <td className="pr-3 text-right">{totals[i]!.toLocaleString("en-US")}</td>
                    <td>
                      {series
                        .filter((s) => s.values[day])
                        .map((s) => `${s.label} ${s.values[day]!.toLocaleString("en-US")}`)
                        .join(", ")}
                    </td>
                  </tr>
                ) : null,
              )}
            </tbody>
          </table>
        </details>
      )}
    </figure>
  );
}

/** One drawing of the chart, `width` units wide; `marked`: the one tests find days in (data attributes). */
function Bars({
  width,
  labels,
  className,
  days,
  series,
  totals,
  title,
  marked,
}: {
  width: number;
  labels: number;
  className: string;
  days: string[];
  series: Series[];
  totals: number[];
  title: string;
  marked: boolean;
}) {
  const top = niceMax(Math.max(0, ...totals));
  const plotW = width - PAD.left - PAD.right;
  const plotH = HEIGHT - PAD.top - PAD.bottom;
  const step = plotW / Math.max(1, days.length);
  const barW = Math.max(2, step * 0.7);
  const y = (v: number) => PAD.top + plotH - (v / top) * plotH;
  const labelEvery = Math.ceil(days.length / labels);
  return (
    <svg
      viewBox={`0 0 ${width} ${HEIGHT}`}
      role="img"
      aria-label={title}
      className={`h-auto w-full text-slate-500 dark:text-slate-400 ${className}`}
    >
      {[0, top / 2, top].filter(Number.isInteger).map((v) => (
        <g key={v}>
          <line x1={PAD.left} x2={width - PAD.right} y1={y(v)} y2={y(v)} stroke="currentColor" strokeOpacity={0.2} />
          <text x={PAD.left - 6} y={y(v) + 4} textAnchor="end" fontSize={11} fill="currentColor">
            {v.toLocaleString("en-US")}
          </text>
        </g>
      ))}
      {days.map((day, i) => {
        let base = 0;
        const x = PAD.left + i * step + (step - barW) / 2;
        const parts = series.map((s) => `${s.label} ${(s.values[day] ?? 0).toLocaleString("en-US")}`).join(", ");
        return (
          <g key={day} {...(marked ? { "data-testid": "chart-day", "data-day": day, "data-total": totals[i] } : {})}>
            <title>{`${day}: ${totals[i]!.toLocaleString("en-US")} requests (${parts})`}</title>
            {series.map((s) => {
              const v = s.values[day] ?? 0;
              if (!v) return null;
              const rect = (
                <rect key={s.label} x={x} width={barW} y={y(base + v)} height={y(base) - y(base + v)} fill={s.color} />
              );
              base += v;
              return rect;
            })}
            {i % labelEvery === 0 && (
              <text x={x + barW / 2} y={HEIGHT - 8} textAnchor="middle" fontSize={11} fill="currentColor">
                {day.slice(5)}
              </text>
            )}
          </g>
        );
      })}
    </svg>
  );
}
