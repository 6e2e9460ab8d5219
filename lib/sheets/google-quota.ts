// The Google quota guard. Every customer's sheets share one Google Cloud project, and Google
// allows each identity (the service account, or an owner's own grant) and the project only so
// many Sheets reads a minute, and as many writes, counted apart (60 and 300 by default:
// GOOGLE_QUOTA_PER_IDENTITY_MINUTE, GOOGLE_QUOTA_PER_PROJECT_MINUTE). Each call reserves a slot
// in both windows of its kind in the limit store
// first, so all instances together stay under them; when a window is full the call waits for a
// slot up to GOOGLE_QUOTA_WAIT_MS, and otherwise gives up with 503 before Google would answer 429
// (reads then fall back to their last good copy). Drive change checks have their own, larger
// quota and are not reserved here.
// Fair shares: one customer account may take at most GOOGLE_QUOTA_ACCOUNT_SHARE (half) of each
// window in a calendar minute, so one account's burst through the shared service account can
// never leave the other accounts without slots (their calls would otherwise answer 503).
import { config } from "@/lib/env";
import { ApiError } from "@/lib/http/errors";
import { getLimitStore, type ConsumeSpec } from "@/lib/limits/store";
import type { SheetRecord } from "./sheet-record";

const MINUTE_MS = 60_000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Whose per-user quota a call spends: the service's own credentials, or the owner's grant. */
export function googleIdentity(sheet: Pick<SheetRecord, "access"> & Partial<Pick<SheetRecord, "userId">>): string {
  if (sheet.access === "oauth") return `oauth:${sheet.userId ?? "unknown"}`;
  return sheet.access === "public" ? "api-key" : "service-account";
}

export type CallKind = "read" | "write";

/** Windows after the burst: the project's, then the account's share of the identity and the project. */
const PROJECT = 1;

function spec(identity: string, kind: CallKind, account: string | undefined, now: number): ConsumeSpec {
  const { GOOGLE_QUOTA_PER_IDENTITY_MINUTE: perIdentity, GOOGLE_QUOTA_PER_PROJECT_MINUTE: perProject, GOOGLE_QUOTA_ACCOUNT_SHARE: share } = config().env;
  const minute = Math.floor(now / MINUTE_MS) * MINUTE_MS;
  const expireAt = minute + MINUTE_MS;
  const counters = [{ key: `sheetapi:gq:${kind}:project:${minute}`, limit: perProject, expireAt }];
  if (account !== undefined && share < 1) {
    counters.push(
      { key: `sheetapi:gq:${kind}:id:${identity}:acct:${account}:${minute}`, limit: Math.max(1, Math.floor(perIdentity * share)), expireAt },
      { key: `sheetapi:gq:${kind}:project:acct:${account}:${minute}`, limit: Math.max(1, Math.floor(perProject * share)), expireAt },
    );
  }
  return { now, member: `${now}:${Math.random().toString(36).slice(2)}`, burst: { key: `sheetapi:gq:${kind}:id:${identity}`, limit: perIdentity, windowMs: MINUTE_MS }, counters };
}

function whose(exceeded: number): string {
  if (exceeded === 0) return "Google identity";
  return exceeded === PROJECT ? "service" : "account's fair share of the service";
}

/**
 * Reserves one Sheets call of `kind` for `identity` on behalf of `account` (the sheet's owner
 * account), waiting for a slot within the bound; 503 past it.
 */
export async function reserveGoogleCall(identity: string, kind: CallKind = "read", account?: string): Promise<void> {
  const deadline = Date.now() + config().env.GOOGLE_QUOTA_WAIT_MS;
  for (;;) {
    const now = Date.now();
    const s = spec(identity, kind, account, now);
    let result;
    try {
      result = await getLimitStore().consume(s);
    } catch {
      return; // Without the store the guard cannot count; Google's own 429s are still retried.
    }
    if (result.exceeded < 0) return;
    const freeAt = result.exceeded === 0 ? (result.oldestBurst ?? now) + MINUTE_MS : s.counters[result.exceeded - 1]!.expireAt;
    if (freeAt > deadline) {
      const retryAfter = Math.max(1, Math.ceil((freeAt - now) / 1000));
      throw new ApiError(
        "service_unavailable",
        `Google Sheets' per-minute ${kind} quota for this sheet's ${whose(result.exceeded)} is used up; retry in ${retryAfter} s.`,
        {},
        { "Retry-After": String(retryAfter) },
      );
    }
    await sleep(Math.max(10, freeAt - now));
  }
}
