// The Google quota guard. Every customer's sheets share one Google Cloud project, and Google
// allows each identity (the service account, or an owner's own grant) and the project only so
// many Sheets reads a minute, and as many writes, counted apart (60 and 300 by default:
// GOOGLE_QUOTA_PER_IDENTITY_MINUTE, GOOGLE_QUOTA_PER_PROJECT_MINUTE). Each call reserves a slot
// in both windows of its kind in the limit store
// first, so all instances together stay under them; when a window is full the call waits for a
// slot up to GOOGLE_QUOTA_WAIT_MS, and otherwise gives up with 503 before Google would answer 429
// (reads then fall back to their last good copy). Drive change checks have their own, larger
// quota and are not reserved here.
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

function spec(identity: string, kind: CallKind, now: number): ConsumeSpec {
  const { GOOGLE_QUOTA_PER_IDENTITY_MINUTE: perIdentity, GOOGLE_QUOTA_PER_PROJECT_MINUTE: perProject } = config().env;
  const minute = Math.floor(now / MINUTE_MS) * MINUTE_MS;
  return {
    now,
    member: `${now}:${Math.random().toString(36).slice(2)}`,
    burst: { key: `sheetapi:gq:${kind}:id:${identity}`, limit: perIdentity, windowMs: MINUTE_MS },
    counters: [{ key: `sheetapi:gq:${kind}:project:${minute}`, limit: perProject, expireAt: minute + MINUTE_MS }],
  };
}

/** Reserves one Sheets call of `kind` for `identity`, waiting for a slot within the bound; 503 past it. */
export async function reserveGoogleCall(identity: string, kind: CallKind = "read"): Promise<void> {
  const deadline = Date.now() + config().env.GOOGLE_QUOTA_WAIT_MS;
  for (;;) {
    const now = Date.now();
    const s = spec(identity, kind, now);
    let result;
    try {
      result = await getLimitStore().consume(s);
    } catch {
      return; // Without the store the guard cannot count; Google's own 429s are still retried.
    }
    if (result.exceeded < 0) return;
    const freeAt = result.exceeded === 0 ? (result.oldestBurst ?? now) + MINUTE_MS : s.counters[0]!.expireAt;
    if (freeAt > deadline) {
      const retryAfter = Math.max(1, Math.ceil((freeAt - now) / 1000));
      throw new ApiError(
        "service_unavailable",
        `Google Sheets' per-minute ${kind} quota for this sheet's ${result.exceeded === 0 ? "Google identity" : "service"} is used up; retry in ${retryAfter} s.`,
        {},
        { "Retry-After": String(retryAfter) },
      );
    }
    await sleep(Math.max(10, freeAt - now));
  }
}
