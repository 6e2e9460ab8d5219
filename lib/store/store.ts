// The limit store: Upstash Redis (serverless) or a Redis of one's own (containers) in production,
// process memory on embedded defaults. Everything that must agree across instances lives here: key and
// sheet records (revocation), and later limits, id counters and cache versions. Its shape is in
// store-types.ts; this file chooses the process's store.
import { config } from "@/lib/env";
import { ApiError } from "@/lib/errors";
import { memoryStore } from "./memory-store";
import type { LimitStore } from "./store-types";
import { upstashStore } from "./upstash-store";
import { upstashRedis } from "./upstash-requester";
import { redactedUrl, redisConnection, redisStore } from "./redis-store";
import { log } from "@/lib/log";
import { perProcess } from "@/lib/per-process";

export { memoryStore, redisStore, upstashStore };
export type {
  AuthorizeResult,
  ConsumeResult,
  ConsumeSpec,
  LedgerEntry,
  LimitStore,
  LockTurn,
  UsageLedger,
  Versioned,
} from "./store-types";

function buildStore(): LimitStore {
  const { limitStore: target, env } = config();
  if (target.kind === "memory") return memoryStore(Date.now, { file: target.file });
  // Said once per process: with both set, Upstash is the one used (lib/env.ts).
  const ignored = target.kind === "upstash" && env.REDIS_URL ? { ignored: "REDIS_URL" } : {};
  log.info({ store: target.kind, url: redactedUrl(target.url), ...ignored }, "limit store");
  // One bounded attempt per call (DECISIONS 18a): neither client retries, each gives up after
  // the timeout. Strings come back as the JSON we stored (no base64 step).
  if (target.kind === "redis") return redisStore(redisConnection(target));
  return upstashStore(upstashRedis(target));
}

const current = perProcess("limit-store", () => ({ store: undefined as LimitStore | undefined }));

export function getLimitStore(): LimitStore {
  current.store ??= buildStore();
  return current.store;
}

/** Replaces the process's store (tests). */
export function setLimitStore(store: LimitStore | undefined): void {
  current.store = store;
}

/**
 * Writes fail closed without the store (DECISIONS 18a): ids, locks, idempotency and cache
 * invalidation all live there. One answer for every write path that finds it unreachable.
 */
export function writesPaused(reason = "the coordination store is unreachable"): ApiError {
  return new ApiError(
    "service_unavailable",
    `Writes are paused: ${reason}. Retry shortly.`,
    {},
    { "Retry-After": "5" },
  );
}
