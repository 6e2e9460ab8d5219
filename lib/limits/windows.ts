// The four limit windows (DECISIONS 14): burst is a sliding 60 s window; hour and day are UTC
// calendar hours and days; the month is the account's billing period, repeating monthly from
// the sign-up instant (a period starting on the 31st ends on the last day of shorter months).
import type { Plan } from "@/lib/plans";

/** The plan's windows; `visitor` is a browser key's own, per visitor address. */
export type PlanWindowName = "burst" | "hour" | "day" | "month";
export type WindowName = PlanWindowName | "visitor";

export interface LimitWindow {
  name: WindowName;
  limit: number;
  /** Window start and end, Unix ms (for burst: the last 60 s). */
  start: number;
  end: number;
}

export const BURST_MS = 60_000;
const MINUTE_MS = 60_000;
const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

/** The anchor moved `months` months on, keeping its day when it can, else the month's last day. */
export function addMonths(anchor: Date, months: number): Date {
  const y = anchor.getUTCFullYear();
  const m = anchor.getUTCMonth() + months;
  const lastDay = new Date(Date.UTC(y, m + 1, 0)).getUTCDate();
  // Periods turn on a whole second: the usage report's ISO times and the limit headers' Unix
  // seconds then name the same moment.
  return new Date(
    Date.UTC(
      y,
      m,
      Math.min(anchor.getUTCDate(), lastDay),
      anchor.getUTCHours(),
      anchor.getUTCMinutes(),
      anchor.getUTCSeconds(),
    ),
  );
}

// The period each anchor was last asked about: every request of an account asks again, and the
// answer changes once a month. Bounded; the oldest anchors go first.
const MAX_PERIODS = 10_000;
const lastPeriods = new Map<number, Readonly<{ start: number; end: number }>>();

/** The billing period holding `now`. */
export function billingPeriod(anchor: Date, now: number): Readonly<{ start: number; end: number }> {
  const last = lastPeriods.get(anchor.getTime());
  if (last && last.start <= now && now < last.end) return last;
  const period = Object.freeze(computeBillingPeriod(anchor, now));
  lastPeriods.delete(anchor.getTime());
  if (lastPeriods.size >= MAX_PERIODS) lastPeriods.delete(lastPeriods.keys().next().value!);
  lastPeriods.set(anchor.getTime(), period);
  return period;
}

function computeBillingPeriod(anchor: Date, now: number): { start: number; end: number } {
  const a = addMonths(anchor, 0).getTime();
  if (now < a) return { start: a, end: addMonths(anchor, 1).getTime() };
  const d = new Date(now);
  let n = (d.getUTCFullYear() - anchor.getUTCFullYear()) * 12 + (d.getUTCMonth() - anchor.getUTCMonth());
  while (n > 0 && addMonths(anchor, n).getTime() > now) n--;
  while (addMonths(anchor, n + 1).getTime() <= now) n++;
  return { start: addMonths(anchor, n).getTime(), end: addMonths(anchor, n + 1).getTime() };
}

export function limitWindows(plan: Plan, anchor: Date, now: number): LimitWindow[] {
  const hour = Math.floor(now / HOUR_MS) * HOUR_MS;
  const day = Math.floor(now / DAY_MS) * DAY_MS;
  const period = billingPeriod(anchor, now);
  return [
    { name: "burst", limit: plan.burst, start: now - BURST_MS, end: now + BURST_MS },
    { name: "hour", limit: plan.hour, start: hour, end: hour + HOUR_MS },
    { name: "day", limit: plan.day, start: day, end: day + DAY_MS },
    { name: "month", limit: plan.month, ...period },
  ];
}

/** A browser key's per-visitor window: the UTC minute holding `now`. */
export function visitorWindow(limit: number, now: number): LimitWindow {
  const start = Math.floor(now / MINUTE_MS) * MINUTE_MS;
  return { name: "visitor", limit, start, end: start + MINUTE_MS };
}
