// The rate-limit headers on routes that need no key (GET /api, /health, unknown paths, /register,
// /auth/{provider}, /docs/{sheetId}/openapi.json), as SPEC (Limits 6) wants on every response.
// Nothing is counted, and a slow lookup is left out (DECISIONS 15, 18a): README.md ("Peeked
// limits").
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
  const settled = await withinDeadline(
    promise.catch(() => undefined),
    ms,
  );
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
  return Object.fromEntries(
    Object.entries(handlers).map(([method, handler]) => [method, withPeekedLimits(handler)]),
  ) as T;
}
