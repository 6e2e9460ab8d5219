// The rate-limit headers on routes that need no key (GET /api, /health, unknown paths, /register,
// /auth/{provider}, /docs/{sheetId}/openapi.json). SPEC (Limits 6) puts the headers on every
// response, and key routes already send them; here, a request that carries a live key gets its
// account's windows as they stand, read as GET /billing/usage reads them, and any other request
// the allowance its address has for requests without a valid key (lib/abuse/invalid-keys.ts),
// the limit such a request meets on the key routes.
//
// Nothing is counted or metered: these routes answer the same with or without a key, so the key
// is not what they serve (DECISIONS 15 counts requests that authenticate with one), and a client
// at its limit must still reach /health and GET /api. A missing or bad key changes nothing here (no
// 401), and it is not noted by the invalid-key guard: that guard turns 401s into 429s on the key
// routes, and these routes refuse no key.
//
// The headers are extras, so they never hold an answer up for long: the lookup starts when the
// request arrives, beside the handler, and whatever has not come PEEK_BUDGET_MS after arrival is
// left out, as is anything that fails (store or database unreachable, DECISIONS 18a).
import { peekAllowance } from "@/lib/abuse/invalid-keys";
import { TOO_SLOW, withinDeadline } from "@/lib/deadline";
import { config } from "@/lib/env";
import { hashApiKey, KEY_FORMAT } from "@/lib/api-key";
import { accountLimits } from "@/lib/limits/accounts";
import { limitHeaders, peekWindows } from "@/lib/limits/limiter";
import { errorFields, log } from "@/lib/log";
import { authenticateKey } from "./admit";
import { ApiError } from "@/lib/errors";
import { requestKey } from "@/lib/http/key-carrier";
import { unknownRoute } from "./route";

/**
 * How long an answer may wait for its headers, from the request's arrival. A healthy store and a
 * cached key answer in a few milliseconds; the store's own bound (LIMIT_STORE_TIMEOUT_MS, 1 s) is
 * for requests that need the count, and these do not.
 */
export const PEEK_BUDGET_MS = 250;

/** The request's key, when it carries one that could be ours; a malformed carrier is no key here. */
function carriedKey(req: Request): string | undefined {
  try {
    const value = requestKey(req);
    return value && KEY_FORMAT.test(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** The limit headers of the key's account, or without a live key the address's allowance, counting nothing. */
export async function peekLimitHeaders(req: Request): Promise<Record<string, string> | undefined> {
  if (config().env.RATE_LIMITS !== "on") return undefined;
  const value = carriedKey(req);
  if (!value) return peekAllowance(req);
  try {
    const key = await authenticateKey(hashApiKey(value));
    return await accountLimitHeaders(key.userId);
  } catch (err) {
    // A bad, revoked or orphaned key is an ordinary request here; anything else is an outage.
    if (err instanceof ApiError && err.code === "unauthorized") return peekAllowance(req);
    log.warn({ ...errorFields(err) }, "limits: windows unavailable, answering without rate-limit headers");
    return undefined;
  }
}

/** The limit headers of the account's windows as they stand, counting nothing. */
export async function accountLimitHeaders(userId: string): Promise<Record<string, string>> {
  const now = Date.now();
  return limitHeaders(await peekWindows(await accountLimits(userId), now), now);
}

/** What `promise` gives within `ms`; undefined when it is late or fails. */
async function within<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  const settled = await withinDeadline(promise.catch(() => undefined), ms);
  return settled === TOO_SLOW ? undefined : settled;
}

type Handler = (req: Request, context?: never) => Promise<Response>;

/**
 * `handler`, its answers carrying the limit headers of a live key the request carries (or, without
 * one, of the address's allowance). A 429 of the route's own (registrations an hour, say) keeps
 * the headers of the limit it names: the one window it has, and it is full.
 */
export function withPeekedLimits<H extends Handler>(handler: H): H {
  const wrapped: Handler = async (req, context) => {
    const arrived = Date.now();
    const peeked = peekLimitHeaders(req);
    const res = await handler(req, context);
    if (res.status === 429) return res;
    // A zero wait still takes headers that are already there: the timer fires after them.
    const headers = await within(peeked, Math.max(0, arrived + PEEK_BUDGET_MS - Date.now()));
    try {
      for (const [name, value] of Object.entries(headers ?? {})) res.headers.set(name, value);
    } catch {
      // Immutable headers (Response.redirect): the answer goes out as it is.
    }
    return res;
  };
  return wrapped as H;
}

/** The 404 of a path no route serves, with the limit headers every answer carries. */
export const unknownRouteWithLimits = withPeekedLimits(unknownRoute);

/** Each handler of a route file (the methods it refuses included) wrapped by withPeekedLimits. */
export function eachWithPeekedLimits<T extends Record<string, Handler>>(handlers: T): T {
  return Object.fromEntries(Object.entries(handlers).map(([method, handler]) => [method, withPeekedLimits(handler)])) as T;
}
