// The one wrapper for key-authenticated routes: the key checked against the sheet and the route's
// permission, the request counted against the plan, limit headers on every answer, its status
// metered. What each step answers: README.md ("withApiKey").
import { config } from "@/lib/env";
import { clientAddress, noteInvalidKey, refuseFloodingAddress } from "@/lib/abuse/invalid-keys";
import { hashApiKey, KEY_FORMAT, KEY_PREFIXES } from "@/lib/api-key";
import { originAllowed } from "@/lib/keys/browser";
import type { KeyRecord } from "@/lib/keys/key-record";
import { noteKeyUsed } from "@/lib/usage/last-used";
import { requirePermission, type Permission } from "@/lib/keys/permissions";
import { givenBack, limitHeaders, rateLimitError, refundRequest, type LimitDecision } from "@/lib/limits/limiter";
import { recordUsage } from "@/lib/usage/metering";
import { currentAccess } from "@/lib/sheets/access/access-check";
import { requireRegistrantCanOpen } from "@/lib/sheets/access/access-lapse";
import { openTally } from "@/lib/usage/request-tally";
import type { SheetRecord } from "@/lib/sheets/sheet-record";
import { admitRequest, authenticateKey, invalidKey } from "./admit";
import { applyCors, corsPreflight, type AllowedOrigin } from "@/lib/http/cors";
import { handleApiError } from "@/lib/http/envelope";
import { accountLimitHeaders, withPeekedLimits } from "./peek-limits";
import { ApiError, quoted } from "@/lib/errors";
import { API_KEY_HEADER, carriesTwoKeys, requestKey } from "@/lib/http/key-carrier";
import { METHODS, type Method } from "@/lib/http/methods";
import { route, type NextContext, type RouteContext } from "./route";

export { API_KEY_HEADER, requirePermission };

export interface KeyContext<P> extends RouteContext<P> {
  key: KeyRecord;
  sheet: SheetRecord;
  /** The data version of the path's tab for the tab cache (undefined when the store is unreachable or the path has no tab). */
  dataVersion: number | undefined;
}

/** The SHA-256 of the request's key; 401 when there is none or it cannot be one of ours. */
function keyHash(req: Request, forSheet: boolean): string {
  const value = requestKey(req);
  if (!value)
    throw new ApiError(
      "unauthorized",
      `Missing API key: send it in the ${API_KEY_HEADER} header (or as Authorization: Bearer <key>).`,
    );
  if (!KEY_FORMAT.test(value)) throw invalidKey(forSheet);
  return hashApiKey(value);
}

/** A `shp_` value must be a publishable key's, `shf_` a form key's, `shk_` a secret key's: records are never trusted across kinds. */
export function checkKind(value: string, key: KeyRecord): void {
  if (value.startsWith(KEY_PREFIXES.publishable) !== Boolean(key.browser)) throw invalidKey();
  if (value.startsWith(KEY_PREFIXES.form) !== Boolean(key.form)) throw invalidKey();
}

const FORM_KEY_ONLY_SUBMITS =
  "This is a form key: it only appends rows to its tab through its form address (POST /f/{formKey}). It never reads, changes or deletes rows, nor sees the schema; use a secret key, on a server.";

/**
 * A form key on any other route: refused, given back to the account's windows and not metered
 * (anyone can copy it out of a page), its address throttled as one sending bad keys is.
 */
async function refuseFormKey(req: Request, decision: LimitDecision | undefined): Promise<never> {
  if (decision?.allowed) await refundRequest(decision).catch(() => undefined);
  refuseFloodingAddress(req);
  throw new ApiError("forbidden", FORM_KEY_ONLY_SUBMITS, {}, noteInvalidKey(req));
}

/**
 * A browser key works only from the pages of the origins its owner listed (the Origin header a
 * browser sets on every cross-origin request and cannot be made to fake). Scripts can send any
 * Origin, which is why such a key reads only what its owner chose to publish.
 *
 * A request from no listed origin is not served, and not its owner's doing: anyone can copy a
 * publishable key out of a page. It is given back to the account's windows and not metered, so
 * it cannot spend the owner's plan, and its address is throttled as one sending bad keys is. (A
 * script can still send a listed Origin: the per-visitor limit and the share of each window kept
 * for secret keys, in lib/limits/limiter.ts, bound what that costs the owner.)
 */
async function refuseOrigin(req: Request, origin: string | null, decision: LimitDecision | undefined): Promise<never> {
  // Given back before the answer, so the owner's next request sees it returned.
  if (decision?.allowed) await refundRequest(decision).catch(() => undefined);
  refuseFloodingAddress(req);
  const allowance = noteInvalidKey(req);
  if (!origin) {
    throw new ApiError(
      "forbidden",
      "This is a browser (publishable) key: it works only from web pages of the origins its owner listed, and this request carries no Origin header. From a server or a script, use a secret key.",
      {},
      allowance,
    );
  }
  throw new ApiError(
    "forbidden",
    `This browser (publishable) key may not be used from the origin ${quoted(origin)}: its owner did not list it. The owner can add it to the key's allowed origins in the dashboard.`,
    {},
    allowance,
  );
}

/** The key's public prefix (what the dashboard shows), for logs: never the key itself. */
const keyPrefix = (req: Request) => {
  try {
    return requestKey(req)?.slice(0, 8);
  } catch {
    return undefined;
  }
};

/**
 * Authenticates, throttling addresses that keep sending bad keys (they have no account to count
 * against). The key is checked first: a valid key is never refused for its address's bad keys.
 * Its 401 carries the address's allowance as the rate-limit headers.
 */
async function unlessInvalid<T>(req: Request, authenticate: () => Promise<T>): Promise<T> {
  try {
    return await authenticate();
  } catch (err) {
    // A 401, or the 400 of a request carrying two different keys: neither is a valid key.
    if (err instanceof ApiError && (err.code === "unauthorized" || carriesTwoKeys(err))) {
      refuseFloodingAddress(req);
      // The answer tells how many more bad keys the address may send this minute; a 401 also
      // names the scheme a key is accepted in (RFC 9110 asks every 401 for one).
      const challenge: Record<string, string> =
        err.code === "unauthorized" ? { "WWW-Authenticate": AUTH_CHALLENGE } : {};
      throw new ApiError(err.code, err.message, err.extra, { ...err.headers, ...noteInvalidKey(req), ...challenge });
    }
    throw err;
  }
}

const AUTH_CHALLENGE = 'Bearer realm="SheetAPI"';

/** Runs the handler; whatever it answers, the answer gets the limit headers and is metered. */
async function answer(
  key: KeyRecord,
  sheetId: string,
  decision: LimitDecision | undefined,
  req: Request,
  requestId: string,
  run: () => Promise<Response>,
): Promise<Response> {
  let res: Response;
  try {
    res = await run();
  } catch (err) {
    res = handleApiError(err, requestId, req.signal);
  }
  // Our failures (and Google's) are not the customer's: a 5xx gives its unit back, and its
  // headers already show it given back.
  const refund = decision !== undefined && res.status >= 500;
  if (decision)
    for (const [name, value] of Object.entries(limitHeaders(refund ? givenBack(decision) : decision)))
      res.headers.set(name, value);
  // Counted before the answer leaves (lib/usage/metering.ts): in the limit store's ledger when
  // it answered for this request, so no answer a client receives goes uncounted.
  await recordUsage({
    userId: key.userId,
    sheetId,
    keyId: key.id,
    status: res.status,
    storeAnswered: decision !== undefined,
  });
  if (refund) void refundRequest(decision).catch(() => undefined);
  return res;
}

const withCors =
  <A extends unknown[]>(inner: (...args: A) => Promise<Response>) =>
  async (...args: A) => {
    const res = await inner(...args);
    applyCors(res.headers);
    return res;
  };

/**
 * `permission` undefined: any live key of the sheet (the 405 answers of key routes). `browser`:
 * the route serves browser (publishable) keys too; only row reads that apply the key's tabs and
 * columns do, so a route added later is closed to them until it does.
 */
export function withApiKey<P extends { sheetId: string; tabName?: string }>(
  handler: (ctx: KeyContext<P>) => Promise<Response>,
  { permission, browser = false }: { permission: Permission | undefined; browser?: boolean },
) {
  return async (req: Request, context?: NextContext<P>): Promise<Response> => {
    // Any origin until the key is known; a browser key's answers name only a listed origin.
    let origin: AllowedOrigin = "*";
    const res = await route<P>(async (ctx) => {
      ctx.annotate({ key_prefix: keyPrefix(ctx.req) });
      const address = clientAddress(ctx.req);
      const { key, sheet, dataVersion, decision } = await unlessInvalid(ctx.req, async () => {
        const admitted = await admitRequest({
          hash: keyHash(ctx.req, true),
          sheetId: ctx.params.sheetId,
          tab: ctx.params.tabName,
          method: ctx.req.method,
          address,
        });
        checkKind(requestKey(ctx.req)!, admitted.key);
        return admitted;
      });
      ctx.annotate({ key_id: key.id, account: key.userId });
      if (key.form) await refuseFormKey(ctx.req, decision);
      if (key.browser) {
        const requested = ctx.req.headers.get("origin");
        origin = requested && originAllowed(key.browser.origins, requested) ? requested : null;
        if (origin === null) await refuseOrigin(ctx.req, requested, decision);
      }
      // A valid key of this sheet: from here the request counts (DECISIONS 15), 403 included.
      if (decision && !decision.allowed) {
        await recordUsage({
          userId: key.userId,
          sheetId: key.sheetId,
          keyId: key.id,
          status: 429,
          storeAnswered: true,
        });
        throw rateLimitError(decision);
      }
      // What the answer counts for the sheet's stats is written with its usage.
      openTally();
      return answer(key, ctx.params.sheetId, decision, ctx.req, ctx.requestId, async () => {
        requirePermission(key, permission);
        if (key.browser && !browser)
          throw new ApiError(
            "forbidden",
            "Browser (publishable) keys read rows only (list, one row, _aggregate, _distinct): this route needs a secret key, on a server.",
          );
        if (!sheet) throw new ApiError("not_found", "This sheet is no longer registered.");
        // Before any cache or conditional answer: a registrant who lost the sheet in Google gets nothing of it.
        const current = await currentAccess(sheet);
        requireRegistrantCanOpen(current);
        return handler({ ...ctx, key, sheet: current, dataVersion });
      });
    })(req, context);
    applyCors(res.headers, origin);
    return res;
  };
}

/**
 * Account-level routes (GET /billing/usage): any live key of the account, with the permission.
 * Not counted and never refused by the plan, so a client that hit its limit can still see its
 * usage (as GitHub's GET /rate_limit); the handler sets the headers from the windows it reads.
 */
export function withAccountKey(
  handler: (ctx: RouteContext<Record<string, never>> & { key: KeyRecord }) => Promise<Response>,
  { permission }: { permission: Permission | undefined },
) {
  return withCors(
    route(async (ctx) => {
      const key = await unlessInvalid(ctx.req, () => authenticateKey(keyHash(ctx.req, false)));
      ctx.annotate({ key_prefix: keyPrefix(ctx.req), key_id: key.id, account: key.userId });
      // A key used only for the usage report is in use too ("Last used" on its sheet's page).
      noteKeyUsed(key.id);
      try {
        if (key.form) throw new ApiError("forbidden", FORM_KEY_ONLY_SUBMITS);
        requirePermission(key, permission);
        return await handler({ ...ctx, key });
      } catch (err) {
        // Refused once the key is known (403, 405): the account's windows as they stand, as its
        // other answers carry them; none when the store cannot say.
        const res = handleApiError(err, ctx.requestId, ctx.req.signal);
        if (config().env.RATE_LIMITS === "on")
          for (const [name, value] of Object.entries(await accountLimitHeaders(key.userId).catch(() => ({}))))
            res.headers.set(name, value);
        return res;
      }
    }),
  );
}

/**
 * The methods a key route does not serve. The key is checked (and, on sheet routes, the request
 * counted, with the limit headers) before the 405, as for any other answer to a valid key; CORS
 * headers come too, so a browser can read it. OPTIONS is the CORS preflight.
 */
export function keyRouteMethods(allowed: Method[], { account = false } = {}) {
  const allow = [...allowed, "OPTIONS"].join(", ");
  const refuse = (): never => {
    throw new ApiError("method_not_allowed", `This route answers ${allow}.`, {}, { Allow: allow });
  };
  const handler = account
    ? withAccountKey(async () => refuse(), { permission: undefined })
    : withApiKey<{ sheetId: string }>(async () => refuse(), { permission: undefined, browser: true });
  // The CORS preflight, naming the route's methods: never counted and never refused (a browser
  // sends it without the key, and it then carries the address's allowance for requests without a
  // valid key); sent with a live key (a script's OPTIONS), it carries the account's windows as
  // they stand, as every answer to a key does.
  const preflight = withPeekedLimits(async () => corsPreflight(allow));
  const others = Object.fromEntries(
    METHODS.filter((m) => m !== "OPTIONS" && !allowed.includes(m)).map((m) => [m, handler]),
  );
  return { ...others, OPTIONS: preflight } as Record<Exclude<Method, "OPTIONS">, typeof handler> & {
    OPTIONS: typeof preflight;
  };
}
