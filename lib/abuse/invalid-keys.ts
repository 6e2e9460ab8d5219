// Invalid-key floods, throttled per client address in each instance's memory (no store call, so a
// flood costs the shared stores nothing): 429 instead of 401 past the allowance (README.md).
import { config } from "@/lib/env";
import { ApiError } from "@/lib/errors";
import { PEER_ADDRESS_HEADER, stampedPeer, visitorAddress } from "@/lib/http/peer-address";
import { rateLimitHeaders } from "@/lib/limits/limiter";

const WINDOW_MS = 60_000;
const MAX_ADDRESSES = 100_000;
const failures = new Map<string, number[]>();

/**
 * The caller's address from X-Forwarded-For: the entry appended by the outermost of the
 * TRUSTED_PROXY_HOPS proxies in front (each appends the address it was called from), so entries
 * a client sends itself are ignored. With no trusted proxy (the default) every entry may be the
 * client's own: the address is the peer's that connected, as the server stamped it
 * (lib/http/peer-address.ts), which a client cannot dodge by rotating a header. Without that
 * stamp (a request the hook did not see) all bad keys reaching this instance share one
 * allowance. An IPv6 address counts by its /64, as one client.
 */
export function clientAddress(req: Request): string {
  const forwarded = req.headers.get("x-forwarded-for");
  // Requests that reach a handler without passing a server (in-process callers) have no address;
  // they are not lumped together. `next start` always fills the header.
  if (forwarded === null) return UNKNOWN;
  const trusted = config().env.TRUSTED_PROXY_HOPS;
  if (trusted === 0) {
    const peer = stampedPeer(req.headers.get(PEER_ADDRESS_HEADER));
    return peer ? visitorAddress(peer) : ANY;
  }
  const hops = forwarded
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  const address = hops[Math.max(0, hops.length - trusted)];
  return address ? visitorAddress(address) : UNKNOWN;
}

const UNKNOWN = "unknown";
const ANY = "any address (no trusted proxy)";

function recent(address: string, now: number): number[] {
  const list = (failures.get(address) ?? []).filter((t) => t > now - WINDOW_MS);
  if (list.length) failures.set(address, list);
  else failures.delete(address);
  return list;
}

/** 429 when this address has sent too many bad keys in the last minute (ask only for a bad key). */
export function refuseFloodingAddress(req: Request, now = Date.now()): void {
  const address = clientAddress(req);
  if (address === UNKNOWN) return;
  const list = recent(address, now);
  const allowed = config().env.INVALID_KEY_LIMIT_PER_MINUTE;
  if (list.length < allowed) return;
  const retryAfter = Math.max(1, Math.ceil((list[0]! + WINDOW_MS - now) / 1000));
  throw new ApiError(
    "rate_limit_exceeded",
    `Too many requests with a missing or invalid API key from your address; retry in ${retryAfter} s.`,
    // The second the oldest failure turns a minute old: what X-RateLimit-Reset says too.
    {
      retry_after: retryAfter,
      limit: { allowed, current: list.length, reset_at: Math.ceil((list[0]! + WINDOW_MS) / 1000) },
    },
    { "Retry-After": String(retryAfter), ...allowanceHeaders(list, now) },
  );
}

/**
 * The address's allowance as it stands, as rate-limit headers, noting nothing: what a request
 * without a valid key meets (none without an address).
 */
export function peekAllowance(req: Request, now = Date.now()): Record<string, string> {
  const address = clientAddress(req);
  return address === UNKNOWN ? {} : allowanceHeaders(recent(address, now), now);
}

/** Notes a bad key from the request's address; the address's allowance after it, as rate-limit headers (none without an address). */
export function noteInvalidKey(req: Request, now = Date.now()): Record<string, string> {
  const address = clientAddress(req);
  if (address === UNKNOWN) return {};
  if (!failures.has(address) && failures.size >= MAX_ADDRESSES) failures.delete(failures.keys().next().value!);
  const list = [...recent(address, now), now];
  failures.set(address, list);
  return allowanceHeaders(list, now);
}

/**
 * The headers a key route's answers carry, for the address's sliding minute: it frees a unit as
 * each failure turns a minute old, so Reset is when the oldest one does.
 */
function allowanceHeaders(list: number[], now: number): Record<string, string> {
  const allowed = config().env.INVALID_KEY_LIMIT_PER_MINUTE;
  const window = {
    limit: allowed,
    remaining: Math.max(0, allowed - list.length),
    reset: (list[0] ?? now) + WINDOW_MS,
    seconds: WINDOW_MS / 1000,
  };
  return rateLimitHeaders(window, [window], now);
}
