// Per-account limits on actions that cost Google calls, create secrets or send traffic elsewhere:
// a sliding hour in the limit store, not enforced without it rather than locking owners out (README.md).
import { ApiError } from "@/lib/errors";
import { log } from "@/lib/log";
import { rateLimitHeaders } from "@/lib/limits/limiter";
import { getLimitStore } from "@/lib/store/store";

const HOUR_MS = 3_600_000;
export const ACCOUNT_ACTION_LIMITS = { register: 20, createKey: 50, tryIt: 120, replay: 10, resend: 100 } as const;
const LABEL = {
  register: "sheet registrations",
  createKey: "new API keys",
  tryIt: "dashboard Try it reads",
  replay: "webhook replays",
  resend: "webhook resends",
} as const;

export async function limitAccountAction(
  userId: string,
  action: keyof typeof ACCOUNT_ACTION_LIMITS,
  now = Date.now(),
): Promise<void> {
  const limit = ACCOUNT_ACTION_LIMITS[action];
  let result;
  try {
    result = await getLimitStore().consume({
      now,
      member: `${now}:${Math.random().toString(36).slice(2)}`,
      burst: { key: `sheetapi:abuse:${action}:${userId}`, limit, windowMs: HOUR_MS },
      counters: [],
    });
  } catch {
    return;
  }
  if (result.exceeded < 0) return;
  const retryAfter = Math.max(1, Math.ceil(((result.oldestBurst ?? now) + HOUR_MS - now) / 1000));
  log.warn({ account: userId, action }, "abuse: account action limit reached");
  throw new ApiError(
    "rate_limit_exceeded",
    `Too many ${LABEL[action]}: at most ${limit} an hour per account. Retry in ${Math.ceil(retryAfter / 60)} min.`,
    {
      retry_after: retryAfter,
      limit: {
        allowed: limit,
        current: result.used[0] ?? limit,
        reset_at: Math.ceil((now + retryAfter * 1000) / 1000),
      },
    },
    // The action's one window, full: the least remaining, as DECISIONS 16 has the headers describe.
    {
      "Retry-After": String(retryAfter),
      ...rateLimitHeaders(
        { limit, remaining: 0, reset: now + retryAfter * 1000 },
        [{ limit, seconds: HOUR_MS / 1000 }],
        now,
      ),
    },
  );
}
