// Who is calling and may they go on: the key's record, the sheet's record and the count against
// the account's plan. When this instance has seen the key before, all of it is one round trip to
// the limit store (a script that counts only a live key of this sheet and account); otherwise,
// or when the cached records are gone, the records are resolved first and the count follows.
import { randomUUID, timingSafeEqual } from "node:crypto";
import { config } from "@/lib/env";
import { keyRecordKey, type KeyRecord } from "@/lib/keys/key-record";
import { loadSheetRecord, resolveKeyAndSheet } from "@/lib/keys/resolve";
import { accountLimits } from "@/lib/limits/accounts";
import { consumeRequest, decide, requestSpec, type LimitDecision, type VisitorLimit } from "@/lib/limits/limiter";
import { getLimitStore, writesPaused } from "@/lib/store/store";
import { dataVersionKey } from "@/lib/sheets/read/tab-cache";
import { sheetRecordKey, type SheetRecord } from "@/lib/sheets/sheet-record";
import { ApiError } from "@/lib/errors";
import { errorFields, log } from "@/lib/log";

export interface Admitted {
  key: KeyRecord;
  /** Null when the sheet is no longer registered, or when no sheet was asked for. */
  sheet: SheetRecord | null;
  /** The data version of the path's tab for the tab cache (undefined when the store is unreachable or no tab was asked for). */
  dataVersion: number | undefined;
  /** Undefined when the request was not counted (store unreachable, or an uncounted route). */
  decision: LimitDecision | undefined;
}

// A key's account, sheet and kind never change, so a hint is safe to keep: the script checks the
// live record anyway. A browser key's visitor limit may change: the hint follows the live record,
// so a new limit applies from the request after the one that saw it. Bounded; the oldest go first.
const MAX_HINTS = 50_000;
type Hint = { userId: string; sheetId: string; visitorLimit?: number };
const owners = new Map<string, Hint>();

function remember(key: KeyRecord): void {
  if (owners.size >= MAX_HINTS) owners.delete(owners.keys().next().value!);
  const visitorLimit = visitorLimitOf(key);
  owners.set(key.hash, {
    userId: key.userId,
    sheetId: key.sheetId,
    ...(visitorLimit === undefined ? {} : { visitorLimit }),
  });
}

/** Browser and form keys count per visitor; secret keys do not. */
const visitorLimitOf = (key: KeyRecord) => key.browser?.visitorLimit ?? key.form?.visitorLimit;

/**
 * A browser or form key's per-visitor window for the request from `address` (clientAddress's, an IPv6
 * address already its /64); none for secret keys.
 */
function visitorOf(keyId: string, visitorLimit: number | undefined, address: string): VisitorLimit | undefined {
  return visitorLimit === undefined ? undefined : { keyId, address, limit: visitorLimit };
}

/**
 * One message for malformed, unknown and other sheets' keys: no hint about which it was. Routes
 * without a sheet in the path (usage) speak of no sheet.
 */
export const invalidKey = (forSheet = true) =>
  new ApiError("unauthorized", forSheet ? "Invalid API key for this sheet." : "Invalid API key.");

/** 401 unless `key` is a live key of `sheetId` (any sheet when `sheetId` is undefined). */
function checkKey(key: KeyRecord | null, hash: string, sheetId: string | undefined): KeyRecord {
  // Records are found by the key's SHA-256; the final comparison is constant-time all the same.
  if (!key || !timingSafeEqual(Buffer.from(key.hash), Buffer.from(hash))) throw invalidKey(sheetId !== undefined);
  if (sheetId !== undefined && key.sheetId !== sheetId) throw invalidKey();
  if (key.claimed) {
    // DECISIONS 18: an account that proved edit access claimed a sheet registered with view access.
    throw new ApiError(
      "unauthorized",
      "This API key no longer works: the spreadsheet was claimed by another account that proved with Google that it can edit it. " +
        "Keys created before the claim stop; the sheet's new owner can create new keys in their dashboard.",
    );
  }
  if (key.revoked) throw new ApiError("unauthorized", "This API key has been revoked.");
  return key;
}

const READS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * DECISIONS 18a: without the limit store, reads are served uncounted (and logged) and writes
 * are refused, since ids, locks and cache invalidation need the store too.
 */
function storeUnavailable(method: string, err: unknown): undefined {
  const read = READS.has(method);
  log.warn(
    { ...errorFields(err), method },
    read ? "limits: store unavailable, serving the read uncounted" : "limits: store unavailable, refusing the write",
  );
  if (read) return undefined;
  throw writesPaused("the rate-limit store is unreachable");
}

type Attempt = { admitted: Admitted } | { storeError?: unknown };

async function inOneTrip(
  hash: string,
  sheetId: string,
  tab: string | undefined,
  member: string,
  address: string,
): Promise<Attempt> {
  const owner = owners.get(hash);
  if (!owner || owner.sheetId !== sheetId) return {};
  // The key id is not in the hint: the visitor window is keyed by the key's hash, which is as unique.
  const request = requestSpec(
    await accountLimits(owner.userId),
    member,
    undefined,
    undefined,
    visitorOf(hash, owner.visitorLimit, address),
  );
  // Outside the try: the names come from the database (its id), and its failure is no store outage.
  const reads = [
    await keyRecordKey(hash),
    await sheetRecordKey(sheetId),
    ...(tab === undefined ? [] : [dataVersionKey(sheetId, tab)]),
  ];
  try {
    const { values, consumed } = await getLimitStore().authorize(reads, owner, request.spec);
    if (!consumed) return {};
    const [key, sheet, version] = values as [KeyRecord, SheetRecord | null, unknown];
    if (visitorLimitOf(key) !== owner.visitorLimit) remember(key);
    return {
      admitted: {
        key: checkKey(key, hash, sheetId),
        sheet: sheet ?? (await loadSheetRecord(sheetId)),
        dataVersion: tab === undefined ? undefined : Number(version ?? 0),
        decision: decide(request, consumed),
      },
    };
  } catch (err) {
    if (err instanceof ApiError) throw err;
    return { storeError: err };
  }
}

/**
 * Authenticates the key for the sheet of the path and counts the request (DECISIONS 15). `tab`:
 * the path's tab, whose data version comes in the same round trip. `address`: the client's (see
 * clientAddress), for a browser key's per-visitor limit.
 */
export async function admitRequest({
  hash,
  sheetId,
  tab,
  method,
  address,
}: {
  hash: string;
  sheetId: string;
  tab?: string;
  method: string;
  address: string;
}): Promise<Admitted> {
  // The request's entry in the burst window: always the server's own and unique. The caller's
  // X-Request-Id is not (a constant one would make repeats count once).
  const member = randomUUID();
  // RATE_LIMITS=off (self-hosted installations, the benchmark's baseline): the key check alone.
  const limited = config().env.RATE_LIMITS === "on";
  const attempt = limited ? await inOneTrip(hash, sheetId, tab, member, address) : {};
  if ("admitted" in attempt) return attempt.admitted;
  const storeDown = "storeError" in attempt;
  const resolved = await resolveKeyAndSheet(hash, sheetId, { skipStore: storeDown, tab });
  const key = checkKey(resolved.key, hash, sheetId);
  remember(key);
  let decision: LimitDecision | undefined;
  if (!limited) decision = undefined;
  else if (storeDown) decision = storeUnavailable(method, attempt.storeError);
  else {
    try {
      decision = await consumeRequest(
        await accountLimits(key.userId),
        member,
        undefined,
        undefined,
        visitorOf(hash, visitorLimitOf(key), address),
      );
    } catch (err) {
      decision = storeUnavailable(method, err);
    }
  }
  return { key, sheet: resolved.sheet, dataVersion: resolved.dataVersion, decision };
}

/** Authenticates a key for account-level routes (usage): no sheet in the path, nothing counted. */
export async function authenticateKey(hash: string): Promise<KeyRecord> {
  const { key } = await resolveKeyAndSheet(hash, undefined);
  return checkKey(key, hash, undefined);
}
