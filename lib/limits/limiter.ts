// Plan limits on the hot path (DECISIONS 14-16, 18a): one atomic check-and-count across the
// burst, hour, day and month windows in the limit store; headers for the window with the least
// remaining; a 429 naming the window that is full; a refund when the answer is a 5xx.
import { BROWSER_SHARE } from "./browser-share";
import { config } from "@/lib/env";
import { ApiError } from "@/lib/errors";
import type { AccountLimits } from "./accounts";
import { planOf, type Plan } from "@/lib/plans";
import { getLimitStore, type ConsumeResult, type ConsumeSpec } from "@/lib/store/store";
import { BURST_MS, limitWindows, visitorWindow, type LimitWindow, type WindowName } from "./windows";

export interface WindowUse {
  name: WindowName;
  limit: number;
  used: number;
  remaining: number;
  /** When the window frees capacity, Unix ms. */
  reset: number;
  /** Window length in seconds (for RateLimit-Policy). */
  seconds: number;
}

export interface LimitDecision {
  allowed: boolean;
  windows: WindowUse[];
  /** The window the headers describe: the one with the least remaining, ties to the shortest (DECISIONS 16). */
  shown: WindowUse;
  /** Refused: the full window the request waits for, which the 429's body and Retry-After describe. */
  exceeded?: WindowUse;
  spec: ConsumeSpec;
}

const key = (userId: string, suffix: string) => `sheetapi:rl:${userId}:${suffix}`;

/** The account's plan, scaled by RATE_LIMIT_MULTIPLIER (load tests, self-hosted installations). */
export function effectivePlan(id: string): Plan {
  const k = config().env.RATE_LIMIT_MULTIPLIER;
  const p = planOf(id);
  return k === 1 ? p : { ...p, month: p.month * k, day: p.day * k, hour: p.hour * k, burst: p.burst * k };
}

/**
 * A browser key's own limit on top of the plan: requests per minute from one visitor address
 * (per key and address), checked and counted in the same atomic step as the plan's windows.
 */
export interface VisitorLimit {
  keyId: string;
  address: string;
  limit: number;
}

/** A browser key's part of one of the account's windows (`limit` requests). */
export const browserLimit = (limit: number) => Math.max(1, Math.floor(limit * BROWSER_SHARE));

/**
 * The account's windows at `now` as one request against the store; for a browser key, the
 * browser share of each and the visitor's own window. The windows' counters are the account's
 * either way: a browser key's request is refused where a secret key's would still pass.
 */
export function requestSpec(
  account: AccountLimits,
  member: string,
  now = Date.now(),
  plan: Plan = effectivePlan(account.plan),
  visitor?: VisitorLimit,
): { spec: ConsumeSpec; windows: LimitWindow[] } {
  const windows = limitWindows(plan, account.billingAnchor, now);
  if (visitor) {
    for (const w of windows) w.limit = browserLimit(w.limit);
    windows.push(visitorWindow(visitor.limit, now));
  }
  const [burst, ...fixed] = windows;
  const counterKey = (w: LimitWindow) =>
    w.name === "visitor" ? `visitor:${visitor!.keyId}:${visitor!.address}:${w.start}` : `${w.name}:${w.start}`;
  const spec: ConsumeSpec = {
    now,
    member,
    burst: { key: key(account.userId, "burst"), limit: burst!.limit, windowMs: BURST_MS },
    counters: fixed.map((w) => ({ key: key(account.userId, counterKey(w)), limit: w.limit, expireAt: w.end })),
  };
  return { spec, windows };
}

/** What the store answered, as a decision with each window's use. */
export function decide(
  { spec, windows }: { spec: ConsumeSpec; windows: LimitWindow[] },
  result: ConsumeResult,
): LimitDecision {
  const uses: WindowUse[] = windows.map((w, i) => ({
    name: w.name,
    limit: w.limit,
    used: result.used[i]!,
    remaining: Math.max(0, w.limit - result.used[i]!),
    reset: w.name === "burst" ? (result.oldestBurst ?? spec.now) + BURST_MS : w.end,
    seconds: Math.round((w.name === "burst" ? BURST_MS : w.end - w.start) / 1000),
  }));
  // The headers: the least remaining; ties go to the shortest window, which comes first.
  const shown = uses.reduce((a, b) => (b.remaining < a.remaining ? b : a));
  // Refused: of the windows that are full, the one that frees last, since the request cannot pass
  // before then (a full burst window ahead of a full hour must not say "retry in 5 s" for 40
  // minutes).
  const exceeded =
    result.exceeded >= 0
      ? uses.filter((u) => u.remaining === 0).reduce((a, b) => (b.reset > a.reset ? b : a), uses[result.exceeded]!)
      : undefined;
  return { allowed: result.exceeded < 0, windows: uses, shown, spec, ...(exceeded ? { exceeded } : {}) };
}

/** `member` must be unique per request: it is the request's entry in the burst window. */
export async function consumeRequest(
  account: AccountLimits,
  member: string,
  now = Date.now(),
  plan?: Plan,
  visitor?: VisitorLimit,
): Promise<LimitDecision> {
  const request = requestSpec(account, member, now, plan, visitor);
  return decide(request, await getLimitStore().consume(request.spec));
}

/** Each window's use as it stands, counting nothing (usage reports, the usage route's headers). */
export async function peekWindows(account: AccountLimits, now = Date.now(), plan?: Plan): Promise<LimitDecision> {
  const request = requestSpec(account, "peek", now, plan);
  return decide(request, await getLimitStore().peek(request.spec));
}

export async function refundRequest(decision: LimitDecision): Promise<void> {
  await getLimitStore().refund(decision.spec);
}

export function limitHeaders(decision: LimitDecision, now = Date.now()): Record<string, string> {
  return rateLimitHeaders(decision.shown, decision.windows, now);
}

/**
 * The decision as it stands once its unit is given back (a 5xx is not counted): every window
 * gains one, so the window shown stays the one with the least remaining.
 */
export function givenBack(decision: LimitDecision): LimitDecision {
  if (!decision.allowed) return decision;
  return {
    ...decision,
    shown: { ...decision.shown, remaining: Math.min(decision.shown.limit, decision.shown.remaining + 1) },
  };
}

/** The rate-limit headers of any limit: `shown` in X-RateLimit-* and RateLimit, every one of `windows` in RateLimit-Policy. */
export function rateLimitHeaders(
  shown: Pick<WindowUse, "limit" | "remaining" | "reset">,
  windows: Pick<WindowUse, "limit" | "seconds">[],
  now = Date.now(),
): Record<string, string> {
  const resetIn = Math.max(0, Math.ceil((shown.reset - now) / 1000));
  return {
    "X-RateLimit-Limit": String(shown.limit),
    "X-RateLimit-Remaining": String(shown.remaining),
    "X-RateLimit-Reset": String(Math.ceil(shown.reset / 1000)),
    RateLimit: `limit=${shown.limit}, remaining=${shown.remaining}, reset=${resetIn}`,
    "RateLimit-Policy": windows.map((x) => `${x.limit};w=${x.seconds}`).join(", "),
  };
}

const WINDOW_TEXT: Record<WindowName, string> = {
  burst: "per minute (burst)",
  hour: "per hour",
  day: "per day",
  month: "per billing period",
  visitor: "per minute from one visitor address (this browser key's limit)",
};

export function rateLimitError(decision: LimitDecision, now = Date.now()): ApiError {
  const w = decision.exceeded ?? decision.shown;
  const retryAfter = Math.max(1, Math.ceil((w.reset - now) / 1000));
  // The second the window frees, as `reset_at` and X-RateLimit-Reset give it (rounded up).
  const when = new Date(Math.ceil(w.reset / 1000) * 1000).toISOString().replace(/\.\d{3}Z$/, "Z");
  // A browser key's plan windows are its share of the account's: say so, or the figure looks wrong.
  const share =
    w.name !== "visitor" && decision.windows.some((x) => x.name === "visitor")
      ? ` This is a browser key's share: browser (publishable) keys may use ${BROWSER_SHARE * 100}% of each of the plan's windows, the rest being kept for the account's secret keys.`
      : "";
  const message =
    (w.name === "month"
      ? `Monthly limit of ${w.limit} requests reached. Requests resume when the next billing period starts at ${when}, or at once after a plan upgrade.`
      : `Rate limit of ${w.limit} requests ${WINDOW_TEXT[w.name]} reached; retry after ${retryAfter} s (${when}).`) +
    share;
  return new ApiError(
    "rate_limit_exceeded",
    message,
    { retry_after: retryAfter, limit: { allowed: w.limit, current: w.used, reset_at: Math.ceil(w.reset / 1000) } },
    { ...limitHeaders(decision, now), "Retry-After": String(retryAfter) },
  );
}
