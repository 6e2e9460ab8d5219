// What is left of the account's plan right now, in one line: shown beside every way to try the API;
// and, on the dashboard's home, a notice while a limit is used up and the keys get 429. Both name
// the two ways on while the keys wait: the owner's Try it (not counted) and the plan panel.
import Link from "next/link";
import { PLAN_PANEL_HREF } from "@/app/components/dashboard-links";
import { LocalTime } from "@/app/components/local-time";

export interface QuotaSnapshot {
  plan: string;
  /** Null when the limit store cannot be read. */
  windows: { name: string; limit: number; remaining: number; reset_at: number }[] | null;
}

const LABEL: Record<string, string> = { burst: "this minute", hour: "this hour", day: "today", month: "this period" };
const n = (x: number) => x.toLocaleString("en-US");

/** The two ways on while the keys wait, for every place that says they get 429. */
export function WaysOn({ tryItHref }: { tryItHref: string }) {
  return (
    <>
      Meanwhile{" "}
      <a href={tryItHref} className="font-medium underline">
        read your sheet with Try it as the owner
      </a>
      , which is not counted, or{" "}
      <Link href={PLAN_PANEL_HREF} className="font-medium underline">
        change plan
      </Link>
      .
    </>
  );
}

export function QuotaLine({ quota, tryItHref = "#try-it" }: { quota: QuotaSnapshot; tryItHref?: string }) {
  if (!quota.windows)
    return (
      <p className="text-xs text-slate-500 dark:text-slate-400" data-testid="quota-line">
        {quota.plan} plan. Remaining requests cannot be read right now.
      </p>
    );
  const tightest = quota.windows.reduce((a, b) => (b.remaining < a.remaining ? b : a));
  return (
    <p className="text-xs text-slate-600 dark:text-slate-400" data-testid="quota-line">
      {quota.plan} plan, requests left:{" "}
      {quota.windows.map((w) => `${n(w.remaining)} of ${n(w.limit)} ${LABEL[w.name] ?? w.name}`).join(" · ")}.
      {tightest.remaining === 0 && (
        <>
          {" "}
          Keys get 429 until <LocalTime at={tightest.reset_at * 1000} shape="clock" />. <WaysOn tryItHref={tryItHref} />
        </>
      )}
    </p>
  );
}

/** While a window is used up, every key of the account gets 429: said where the owner looks first. */
export function LimitReachedNotice({ quota }: { quota: QuotaSnapshot }) {
  const full = quota.windows?.filter((w) => w.remaining === 0) ?? [];
  if (!full.length) return null;
  // The window that frees last is the one the keys wait for.
  const w = full.reduce((a, b) => (b.reset_at > a.reset_at ? b : a));
  return (
    <p
      role="alert"
      data-testid="limit-reached"
      className="rounded-md bg-amber-50 p-3 text-sm text-amber-900 dark:bg-amber-950 dark:text-amber-100"
    >
      Your API keys are refused with 429 right now: the {quota.plan} plan&apos;s {n(w.limit)} requests{" "}
      {LABEL[w.name] ?? w.name} are used. They work again at{" "}
      <LocalTime at={w.reset_at * 1000} shape={w.name === "month" || w.name === "day" ? "minute" : "clock"} />.{" "}
      <Link href={PLAN_PANEL_HREF} className="font-medium underline">
        See usage and change plan
      </Link>
    </p>
  );
}
