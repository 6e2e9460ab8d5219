// The Google quota guard: every call reserves a slot in its identity's and the project's
// per-minute windows in the limit store, so all instances together stay under Google's quota,
// with fair shares between accounts under contention (README.md).
import { config } from "@/lib/env";
import { ApiError } from "@/lib/errors";
import { getLimitStore, type ConsumeSpec } from "@/lib/store/store";
import type { SheetAccess } from "@/db/schema";
import { metrics } from "@/lib/observability/metrics";
import { googleFailingNow } from "./outcomes";

const MINUTE_MS = 60_000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Whose per-user quota a call spends: the service account the sheet is shared with (each has its
 * own; lib/google/identities.ts), the API key, or the owner's grant.
 */
export function googleIdentity(sheet: {
  access: SheetAccess;
  userId?: string;
  serviceAccount?: string | null;
}): string {
  if (sheet.access === "oauth") return `oauth:${sheet.userId ?? "unknown"}`;
  if (sheet.access === "public") return "api-key";
  return `service-account:${sheet.serviceAccount ?? config().google.serviceAccount.email}`;
}

export type CallKind = "read" | "write" | "drive";

/**
 * Drive's default per-minute quota, per user and per project alike (Google Cloud console, Drive
 * API quotas): far above the Sheets ones, so the access re-checks never crowd out reads.
 */
export const DRIVE_PER_MINUTE = 12_000;

/** Windows after the burst: the project's, the identity's calendar minute, then the account's share of the identity and the project. */
const PROJECT = 1;
const IDENTITY_MINUTE = 2;

/**
 * The call's windows at `now`. `used`: each window's use as the store has it now (burst first),
 * which sets the account's limit (`accountLimit`); without it, the limit of an empty minute.
 */
function spec(
  identity: string,
  kind: CallKind,
  account: string | undefined,
  now: number,
  used: readonly number[] = [],
): ConsumeSpec {
  const {
    GOOGLE_QUOTA_PER_IDENTITY_MINUTE: sheetsPerIdentity,
    GOOGLE_QUOTA_PER_PROJECT_MINUTE: sheetsPerProject,
    GOOGLE_QUOTA_ACCOUNT_SHARE: share,
  } = config().env;
  const [perIdentity, perProject] =
    kind === "drive" ? [DRIVE_PER_MINUTE, DRIVE_PER_MINUTE] : [sheetsPerIdentity, sheetsPerProject];
  const minute = Math.floor(now / MINUTE_MS) * MINUTE_MS;
  const expireAt = minute + MINUTE_MS;
  const counters = [
    { key: `sheetapi:gq:${kind}:project:${minute}`, limit: perProject, expireAt },
    // Never fuller than the burst window (which holds every call of this calendar minute): it counts, for the shares.
    { key: `sheetapi:gq:${kind}:id:${identity}:${minute}`, limit: perIdentity, expireAt },
  ];
  if (account !== undefined && share < 1) {
    const [, projectUsed = 0, identityUsed = 0, ownIdentity = 0, ownProject = 0] = used;
    counters.push(
      {
        key: `sheetapi:gq:${kind}:id:${identity}:acct:${account}:${minute}`,
        limit: accountLimit(perIdentity, share, identityUsed, ownIdentity, !identity.startsWith("oauth:")),
        expireAt,
      },
      {
        key: `sheetapi:gq:${kind}:project:acct:${account}:${minute}`,
        limit: accountLimit(perProject, share, projectUsed, ownProject, true),
        expireAt,
      },
    );
  }
  return {
    now,
    member: `${now}:${Math.random().toString(36).slice(2)}`,
    burst: { key: `sheetapi:gq:${kind}:id:${identity}`, limit: perIdentity, windowMs: MINUTE_MS },
    counters,
  };
}

/**
 * An account's limit in one window: its share of what the others left free (`used` by everyone,
 * `own` by this account); at least 1, so an account is never shut out of a window with a slot.
 */
export function fairLimit(window: number, share: number, used: number, own: number): number {
  return Math.max(1, Math.floor((window - Math.max(0, used - own)) * share));
}

/**
 * An account's limit in one window this minute: while no other account used it, all of it, less
 * the reserve others may still need when the window is `shared` (a service account, the API key,
 * the project); else its fair share.
 */
export function accountLimit(window: number, share: number, used: number, own: number, shared: boolean): number {
  if (used - own > 0) return fairLimit(window, share, used, own);
  return shared ? Math.max(1, window - Math.floor((window * share) / 2)) : window;
}

function whose(exceeded: number): string {
  if (exceeded === 0 || exceeded === IDENTITY_MINUTE) return "Google identity";
  return exceeded === PROJECT ? "service" : "account's fair share of the service";
}

/**
 * The guard's 503: the call was refused before it left, so Google never saw it. A write refused
 * this way is known not to have landed (nothing to settle), unlike one Google did not answer.
 */
export class QuotaRefusal extends ApiError {}

/**
 * Reserves one Sheets call of `kind` for `identity` on behalf of `account` (the sheet's owner
 * account), waiting for a slot within the bound; 503 past it.
 */
export async function reserveGoogleCall(identity: string, kind: CallKind = "read", account?: string): Promise<void> {
  const deadline = Date.now() + config().env.GOOGLE_QUOTA_WAIT_MS;
  for (;;) {
    const now = Date.now();
    let s = spec(identity, kind, account, now);
    let result;
    try {
      // The account's share depends on what the others use now: read, not counted (the windows
      // themselves stay atomic in the consume that follows).
      if (s.counters.length > 2) s = spec(identity, kind, account, now, (await getLimitStore().peek(s)).used);
      result = await getLimitStore().consume(s);
    } catch {
      return; // Without the store the guard cannot count; Google's own 429s are still retried.
    }
    if (result.exceeded < 0) return;
    const freeAt =
      result.exceeded === 0 ? (result.oldestBurst ?? now) + MINUTE_MS : s.counters[result.exceeded - 1]!.expireAt;
    if (freeAt > deadline) {
      metrics.quotaGuard({ result: "refused", kind });
      const retryAfter = Math.max(1, Math.ceil((freeAt - now) / 1000));
      // Failing calls and their retries fill the windows too: then the cause to name is Google's outage.
      const cause = googleFailingNow(now)
        ? `Google Sheets is unavailable at the moment (most recent calls to it failed)`
        : `Google Sheets' per-minute ${kind} quota for this sheet's ${whose(result.exceeded)} is used up`;
      throw new QuotaRefusal(
        "service_unavailable",
        `${cause}; retry in ${retryAfter} s.${kind === "write" ? " Nothing was written." : ""}`,
        {},
        { "Retry-After": String(retryAfter) },
      );
    }
    metrics.quotaGuard({ result: "held", kind });
    await sleep(Math.max(10, freeAt - now));
  }
}
