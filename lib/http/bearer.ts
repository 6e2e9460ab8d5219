// Routes for operators' tools (the metrics scraper, the cron scheduler) authenticate with one
// shared secret sent as `Authorization: Bearer <secret>`, compared in constant time.
import { createHash, timingSafeEqual } from "node:crypto";

const digest = (text: string) => createHash("sha256").update(text).digest();

/** True when the request carries `secret` as its bearer token. */
export function bearerMatches(req: Request, secret: string): boolean {
  const given = /^Bearer (.+)$/.exec(req.headers.get("authorization") ?? "")?.[1] ?? "";
  // Digests first: equal lengths for timingSafeEqual, and the secret's length is not given away.
  return timingSafeEqual(digest(given), digest(secret));
}
