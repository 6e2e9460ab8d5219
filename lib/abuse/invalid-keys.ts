// Invalid-key floods: requests whose key is missing or wrong have no account to be counted
// against, so each instance throttles them per client address instead (a sliding minute in
// memory: no store call, so a flood costs the shared stores nothing). Past the allowance the
// address gets 429 before any lookup, until its failures age out.
import { config } from "@/lib/env";
import { ApiError } from "@/lib/http/errors";

const WINDOW_MS = 60_000;
const MAX_ADDRESSES = 100_000;
const failures = new Map<string, number[]>();

/**
 * The caller's address from X-Forwarded-For: the entry appended by the outermost of the
 * TRUSTED_PROXY_HOPS proxies in front (each appends the address it was called from), so entries
 * a client sends itself are ignored. With no proxy, `next start` fills the header with the
 * socket's address only when the client sent none: expose the service through a proxy.
 */
export function clientAddress(req: Request): string {
  const hops = (req.headers.get("x-forwarded-for") ?? "").split(",").map((s) => s.trim()).filter(Boolean);
  const trusted = config().env.TRUSTED_PROXY_HOPS;
  return hops[Math.max(0, hops.length - trusted)] ?? req.headers.get("x-real-ip") ?? UNKNOWN;
}

// Requests that reach a handler without passing a server (in-process callers) have no address;
// they are not lumped together.
const UNKNOWN = "unknown";

function recent(address: string, now: number): number[] {
  const list = (failures.get(address) ?? []).filter((t) => t > now - WINDOW_MS);
  if (list.length) failures.set(address, list);
  else failures.delete(address);
  return list;
}

/** 429 when this address has sent too many bad keys in the last minute. */
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
    { retry_after: retryAfter, limit: { allowed, current: list.length, reset_at: Math.ceil((now + retryAfter * 1000) / 1000) } },
    { "Retry-After": String(retryAfter) },
  );
}

export function noteInvalidKey(req: Request, now = Date.now()): void {
  const address = clientAddress(req);
  if (address === UNKNOWN) return;
  if (!failures.has(address) && failures.size >= MAX_ADDRESSES) failures.delete(failures.keys().next().value!);
  failures.set(address, [...recent(address, now), now]);
}
