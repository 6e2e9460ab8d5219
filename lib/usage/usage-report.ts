// GET /billing/usage and the dashboard's usage page: the period's use from the store's counters,
// the per-day records in Postgres behind the charts and as the fallback (README.md).
import { usageByDay, usageByKey, usageTotal } from "@/db/queries/usage";
import type { AccountLimits } from "@/lib/limits/accounts";
import { effectivePlan, peekWindows, type LimitDecision, type WindowUse } from "@/lib/limits/limiter";
import { COUNTED_CLASSES, flushUsage, type StatusClass } from "./metering";
import { utcDay } from "./utc-day";
import { planOf } from "@/lib/plans";
import { billingPeriod, type PlanWindowName } from "@/lib/limits/windows";
import { errorFields, log } from "@/lib/log";

const DAY_MS = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");
const round2 = (x: number) => Math.round(x * 100) / 100;

export interface UsageReport {
  current_period: {
    start: string;
    end: string;
    requests_used: number;
    requests_limit: number;
    percentage_used: number;
  };
  daily_average: number;
  projected_usage: number;
  plan: { id: string; name: string };
  /** Each window's limit and use now; null when the limit store cannot be reached. */
  windows: { name: PlanWindowName; limit: number; used: number; remaining: number; reset_at: number }[] | null;
}

/** The windows as they stand, or null when the store is unreachable (the report falls back). */
export async function currentWindows(account: AccountLimits, now = Date.now()): Promise<LimitDecision | null> {
  try {
    return await peekWindows(account, now);
  } catch (err) {
    log.warn({ ...errorFields(err) }, "usage: limit store unavailable, reporting durable usage");
    return null;
  }
}

export async function usageReport(
  account: AccountLimits,
  now = Date.now(),
  decision?: LimitDecision | null,
): Promise<UsageReport> {
  const period = billingPeriod(account.billingAnchor, now);
  const windows = decision === undefined ? await currentWindows(account, now) : decision;
  const month = windows?.windows.find((w) => w.name === "month");
  const limit = effectivePlan(account.plan).month;
  const used = month ? month.used : await durableUsed(account.userId, period, now);
  const elapsedDays = Math.max(1, (now - period.start) / DAY_MS);
  const dailyAverage = round2(used / elapsedDays);
  return {
    current_period: {
      start: iso(period.start),
      end: iso(period.end),
      requests_used: used,
      requests_limit: limit,
      percentage_used: round2((used / limit) * 100),
    },
    daily_average: dailyAverage,
    projected_usage: Math.max(used, Math.round((dailyAverage * (period.end - period.start)) / DAY_MS)),
    plan: { id: account.plan, name: planOf(account.plan).label },
    windows: windows?.windows.map(toWindowReport) ?? null,
  };
}

// Usage is the account's: a browser key's per-visitor window (never in these decisions) is not reported.
const toWindowReport = (w: WindowUse) => ({
  name: w.name as PlanWindowName,
  limit: w.limit,
  used: w.used,
  remaining: w.remaining,
  reset_at: Math.ceil(w.reset / 1000),
});

/** Counted requests of the period from Postgres (days are UTC, so the period's first day counts whole). */
async function durableUsed(userId: string, period: { start: number }, now: number): Promise<number> {
  await flushUsage();
  return usageTotal({ userId, from: utcDay(period.start), to: utcDay(now + DAY_MS), classes: COUNTED_CLASSES });
}

export interface UsageSeries {
  days: string[];
  byClass: Record<string, Partial<Record<StatusClass, number>>>;
  /** `sheet`: the name of the sheet the key belongs to (keys of different sheets may share a name). */
  byKey: {
    keyId: string;
    name: string;
    prefix: string;
    sheet: string;
    revoked: boolean;
    perDay: Record<string, number>;
    total: number;
  }[];
}

/** Requests per day of the period, by status class and by key (counted classes), for the charts. */
export async function usageSeries(account: AccountLimits, now = Date.now()): Promise<UsageSeries> {
  await flushUsage();
  const period = billingPeriod(account.billingAnchor, now);
  const range = { userId: account.userId, from: utcDay(period.start), to: utcDay(period.end + DAY_MS - 1) };
  const days: string[] = [];
  for (let d = Date.parse(range.from); utcDay(d) < range.to; d += DAY_MS) days.push(utcDay(d));
  const [classRows, keyRows] = await Promise.all([
    usageByDay(range),
    usageByKey({ ...range, classes: COUNTED_CLASSES }),
  ]);
  const byClass: UsageSeries["byClass"] = {};
  for (const r of classRows) (byClass[r.day] ??= {})[r.statusClass as StatusClass] = r.count;
  const keys = new Map<string, UsageSeries["byKey"][number]>();
  for (const r of keyRows) {
    const k = keys.get(r.keyId) ?? {
      keyId: r.keyId,
      name: r.name ?? "deleted key",
      prefix: r.prefix ?? "",
      sheet: r.sheet ?? "a removed sheet",
      revoked: Boolean(r.revoked),
      perDay: {},
      total: 0,
    };
    k.perDay[r.day] = (k.perDay[r.day] ?? 0) + r.count;
    k.total += r.count;
    keys.set(r.keyId, k);
  }
  return { days, byClass, byKey: [...keys.values()].sort((a, b) => b.total - a.total) };
}

/** The plan and what is left of each window, for the dashboard's lines beside every Try it. */
export async function quotaSnapshot(
  account: AccountLimits,
  now = Date.now(),
): Promise<{ plan: string; windows: UsageReport["windows"] }> {
  const decision = await currentWindows(account, now);
  return { plan: planOf(account.plan).label, windows: decision?.windows.map(toWindowReport) ?? null };
}
