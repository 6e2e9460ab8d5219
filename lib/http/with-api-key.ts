// The one wrapper for key-authenticated routes: X-API-Key is checked against the sheet in the
// path and the permission the route needs (401 unauthorized / 403 forbidden in the envelope).
import { timingSafeEqual } from "node:crypto";
import { hashApiKey, KEY_FORMAT } from "@/lib/keys/api-key";
import type { KeyRecord } from "@/lib/keys/key-record";
import { noteKeyUsed } from "@/lib/keys/last-used";
import { PERMISSION_LABELS, type Permission } from "@/lib/keys/permissions";
import { resolveKeyAndSheet } from "@/lib/keys/resolve";
import type { SheetRecord } from "@/lib/sheets/sheet-record";
import { afterResponse } from "./after-response";
import { applyCors } from "./cors";
import { accountLimits } from "@/lib/limits/accounts";
import { consumeRequest, limitHeaders, rateLimitError, refundRequest, type LimitDecision } from "@/lib/limits/limiter";
import { handleApiError } from "./envelope";
import { ApiError } from "./errors";
import { route, type RouteContext } from "./route";

export const API_KEY_HEADER = "X-API-Key";

export interface KeyContext<P> extends RouteContext<P> {
  key: KeyRecord;
  sheet: SheetRecord;
  /** The sheet's data version for the tab cache (undefined when the store is unreachable). */
  dataVersion: number | undefined;
}

// One message for unknown keys and keys of other sheets: no hint about which it was.
const invalid = () => new ApiError("unauthorized", "Invalid API key for this sheet.");

const READS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Checks and counts the request against the account's plan. When the limit store cannot be
 * reached (each call gives up after LIMIT_STORE_TIMEOUT_MS), reads are served uncounted and
 * logged, and writes are refused with 503: they need the store for ids and invalidation too.
 */
async function countRequest(userId: string, requestId: string, method: string): Promise<LimitDecision | undefined> {
  const account = await accountLimits(userId);
  try {
    return await consumeRequest(account, requestId);
  } catch (err) {
    console.warn(`[limits] limit store unavailable (${(err as Error).message}); ${READS.has(method) ? "serving the read uncounted" : "refusing the write"}`);
    if (READS.has(method)) return undefined;
    throw new ApiError("service_unavailable", "Writes are paused: the rate-limit store is unreachable. Retry shortly.", {}, { "Retry-After": "5" });
  }
}

export function withApiKey<P extends { sheetId: string }>(
  handler: (ctx: KeyContext<P>) => Promise<Response>,
  { permission }: { permission: Permission },
) {
  const inner = route<P>(async (ctx) => {
    const value = ctx.req.headers.get(API_KEY_HEADER)?.trim();
    if (!value) throw new ApiError("unauthorized", `Missing API key: send it in the ${API_KEY_HEADER} header.`);
    if (!KEY_FORMAT.test(value)) throw invalid();
    const hash = hashApiKey(value);
    // Records are found by the key's SHA-256, never by the key itself; the final comparison is
    // constant-time all the same.
    const { key, sheet, dataVersion } = await resolveKeyAndSheet(hash, ctx.params.sheetId);
    if (!key || !timingSafeEqual(Buffer.from(key.hash), Buffer.from(hash)) || key.sheetId !== ctx.params.sheetId) throw invalid();
    if (key.revoked) throw new ApiError("unauthorized", "This API key has been revoked.");
    // A valid key of this sheet: from here the request counts (DECISIONS 15), 403 included.
    const decision = await countRequest(key.userId, ctx.requestId, ctx.req.method);
    if (decision && !decision.allowed) throw rateLimitError(decision);
    let res: Response;
    try {
      if (!key.permissions.includes(permission)) {
        throw new ApiError("forbidden", `This API key lacks the ${PERMISSION_LABELS[permission]} permission.`);
      }
      if (!sheet) throw new ApiError("not_found", "This sheet is no longer registered.");
      afterResponse(() => noteKeyUsed(key.id));
      res = await handler({ ...ctx, key, sheet, dataVersion });
    } catch (err) {
      res = handleApiError(err, ctx.requestId);
    }
    if (decision) {
      for (const [name, value] of Object.entries(limitHeaders(decision))) res.headers.set(name, value);
      // Our failures (and Google's) are not the customer's: a 5xx gives its unit back.
      if (res.status >= 500) afterResponse(() => refundRequest(decision).catch(() => undefined));
    }
    return res;
  });
  return async (req: Request, context?: { params: Promise<P> }): Promise<Response> => {
    const res = await inner(req, context);
    applyCors(res.headers);
    return res;
  };
}
