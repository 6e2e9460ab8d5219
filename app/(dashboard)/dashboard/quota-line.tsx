// What is left of the account's plan right now, in one line: shown beside every way to try the API.
export interface QuotaSnapshot {
  plan: string;
  /** Null when the limit store cannot be read. */
  windows: { name: string; limit: number; remaining: number; reset_at: number }[] | null;
}

const LABEL: Record<string, string> = { burst: "this minute", hour: "this hour", day: "today", month: "this period" };
const n = (x: number) => x.toLocaleString("en-US");

export function QuotaLine({ quota }: { quota: QuotaSnapshot }) {
  if (!quota.windows) return <p className="text-xs text-slate-500" data-testid="quota-line">{quota.plan} plan. Remaining requests cannot be read right now.</p>;
  const tightest = quota.windows.reduce((a, b) => (b.remaining < a.remaining ? b : a));
  return (
    <p className="text-xs text-slate-600 dark:text-slate-400" data-testid="quota-line">
      {quota.plan} plan, requests left: {quota.windows.map((w) => `${n(w.remaining)} of ${n(w.limit)} ${LABEL[w.name] ?? w.name}`).join(" · ")}.
      {tightest.remaining === 0 && ` Keys get 429 until ${new Date(tightest.reset_at * 1000).toISOString().slice(11, 16)} UTC.`}
    </p>
  );
}
