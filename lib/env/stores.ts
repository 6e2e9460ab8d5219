// The shared limit store's settings: Upstash when both of its settings are given (even beside
// REDIS_URL), else a plain Redis when REDIS_URL is, else the in-process store.
import { join } from "node:path";
import { ConfigError } from "./config-error";
import type { Env } from "./schema";

/** `file`: where the embedded store is kept across restarts (none under tests, which each start empty). */
export type LimitStoreConfig =
  | { kind: "memory"; file?: string }
  | { kind: "upstash"; url: string; token: string; timeoutMs: number }
  | { kind: "redis"; url: string; timeoutMs: number };

/** Refuses an Upstash address without its token (a store the service could not use). */
export function checkLimitStoreSettings(env: Env): void {
  if (env.UPSTASH_REDIS_REST_URL && !env.UPSTASH_REDIS_REST_TOKEN) {
    throw new ConfigError("UPSTASH_REDIS_REST_TOKEN: required when UPSTASH_REDIS_REST_URL is set");
  }
}

export function limitStoreConfig(env: Env, dataDir: string): LimitStoreConfig {
  const timeoutMs = env.LIMIT_STORE_TIMEOUT_MS;
  if (env.UPSTASH_REDIS_REST_URL && env.UPSTASH_REDIS_REST_TOKEN)
    return { kind: "upstash", url: env.UPSTASH_REDIS_REST_URL, token: env.UPSTASH_REDIS_REST_TOKEN, timeoutMs };
  if (env.REDIS_URL) return { kind: "redis", url: env.REDIS_URL, timeoutMs };
  return { kind: "memory", ...(env.NODE_ENV === "test" ? {} : { file: join(dataDir, "limit-store.json") }) };
}
