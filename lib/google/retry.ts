// Retries for Google calls: rate limits (429, and Drive's 403 userRateLimitExceeded /
// rateLimitExceeded), 5xx and no answer at all are retried with exponential backoff and full
// jitter, within a time budget; whatever still fails is the caller's to report.
import { readGoogleError, type GoogleFailure } from "@/lib/google/errors";
import { ApiError } from "@/lib/errors";

export interface RetryPolicy {
  /** Which failures may be retried; writes pass a narrower rule than reads. */
  retryable: (failure: GoogleFailure) => boolean;
  budgetMs: number;
  baseDelayMs?: number;
  maxDelayMs?: number;
  /** Calls in all, the first included: each spends the account's share of Google's quota. */
  maxAttempts?: number;
}

export const TRANSIENT = (f: GoogleFailure) => f.status === 0 || f.problem === "rate_limited" || f.status >= 500;
/** Failures after which Google certainly did not apply a write. */
export const NOT_APPLIED = (f: GoogleFailure) => f.problem === "rate_limited" || f.status === 503;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * After a rate limit, Google asks for truncated exponential backoff from about a second (1 s,
 * 2 s, 4 s..., Sheets API "Usage limits"): a quicker retry is refused again and only spends more
 * of the minute's quota, which the other reads of the account share. Half jitter keeps the
 * retries of concurrent callers apart.
 */
const rateLimitDelay = (attempt: number) => Math.min(8_000, 1_000 * 2 ** attempt) * (0.5 + Math.random() / 2);

export async function withRetries<T>(op: () => Promise<T>, policy: RetryPolicy): Promise<T> {
  const started = Date.now();
  const base = policy.baseDelayMs ?? 150;
  const cap = policy.maxDelayMs ?? 2000;
  // Full jitter makes some waits tiny: without a count, a long outage would spend a dozen calls
  // of the quota on one answer.
  const maxAttempts = policy.maxAttempts ?? 4;
  for (let attempt = 0; ; attempt++) {
    try {
      return await op();
    } catch (err) {
      // Our own refusals (the quota guard) are final; only Google's failures are retried.
      if (err instanceof ApiError) throw err;
      const failure = readGoogleError(err);
      if (failure.invalidGrant || !policy.retryable(failure) || attempt + 1 >= maxAttempts) throw err;
      const delay =
        failure.problem === "rate_limited"
          ? rateLimitDelay(attempt)
          : Math.random() * Math.min(cap, base * 2 ** attempt);
      if (Date.now() - started + delay >= policy.budgetMs) throw err;
      await sleep(delay);
    }
  }
}
