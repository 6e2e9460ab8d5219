// What Google answered lately, for /health: Sheets calls over the last minute in this instance,
// how many failed and how many the quota guard held back. Google can be reachable (its discovery
// document answers) and still refuse the calls that matter, which /health should say.
import { readGoogleError } from "@/lib/google/errors";
import { ApiError } from "@/lib/errors";
import { log } from "@/lib/log";
import { perProcess } from "@/lib/per-process";

const WINDOW_MS = 60_000;
const MAX_EVENTS = 10_000;

type Outcome = "ok" | "rate_limited" | "failed" | "held_back";
// Per process: /health must see the route handlers' calls.
const events = perProcess("google-outcomes", () => [] as { at: number; outcome: Outcome }[]);

/** Notes a call's outcome and answers it (for the metrics). */
/** What a call's end says about Google: ok, rate limited, failed (Google's fault or the service's setup), held back by the guard. */
export function googleOutcomeOf(err?: unknown): Outcome {
  let outcome: Outcome = "ok";
  if (err instanceof ApiError) outcome = err.code === "service_unavailable" ? "held_back" : "failed";
  else if (err !== undefined) {
    const failure = readGoogleError(err);
    // Ours to report when Google itself failed or refused the service's own setup (its service
    // account, a disabled API, a missing scope, a restricted key); other 4xx are about the request or sheet.
    if (failure.problem === "rate_limited") outcome = "rate_limited";
    else if (failure.status === 0 || failure.status >= 500 || (failure.problem && failure.problem !== "grant_revoked"))
      outcome = "failed";
  }
  return outcome;
}

export function noteGoogleOutcome(err?: unknown, now = Date.now()): Outcome {
  const outcome = googleOutcomeOf(err);
  events.push({ at: now, outcome });
  if (events.length > MAX_EVENTS) events.splice(0, events.length - MAX_EVENTS);
  return outcome;
}

export interface GoogleOutcomes {
  calls: number;
  rate_limited: number;
  failed: number;
  held_back: number;
  /** Half or more of the last ten calls (at least five) did not get through: what is happening now. */
  degraded: boolean;
}

export function recentGoogleOutcomes(now = Date.now()): GoogleOutcomes {
  while (events.length && events[0]!.at <= now - WINDOW_MS) events.shift();
  const count = (o: Outcome) => events.filter((e) => e.outcome === o).length;
  const latest = events.slice(-10);
  const bad = latest.filter((e) => e.outcome !== "ok").length;
  return {
    calls: events.length,
    rate_limited: count("rate_limited"),
    failed: count("failed"),
    held_back: count("held_back"),
    degraded: latest.length >= 5 && bad * 2 >= latest.length,
  };
}

/**
 * Google itself is failing now: of this instance's Sheets calls in the last minute that left (the
 * guard's held-back ones aside), half or more failed on Google's side (5xx, no answer, its setup).
 */
export function googleFailingNow(now = Date.now()): boolean {
  const { calls, failed, held_back } = recentGoogleOutcomes(now);
  return failed > 0 && failed * 2 >= calls - held_back;
}

// Whether the service account could last sign in (its JWT-bearer token exchange): a bad key, a
// deleted account or a skewed clock breaks every service-account sheet at once, and is the
// operator's to fix, so /health reports it as the sheets backend being down.
const serviceAccount = perProcess("google-service-account", () => ({
  failure: undefined as string | undefined,
  at: 0,
}));

/** Records the service account's last sign-in: undefined when it worked, else Google's answer. */
export function noteServiceAccountSignIn(failure?: string, now = Date.now()): void {
  if (failure) log.error({ google_error: failure }, "google: the service account cannot get an access token");
  serviceAccount.failure = failure;
  serviceAccount.at = now;
}

export function serviceAccountSignInFailure(): string | undefined {
  return serviceAccount.failure;
}
