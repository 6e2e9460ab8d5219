// The limit store: Upstash Redis (or emulators/upstash over a real Redis) in production, process
// memory on embedded defaults. Limits, id counters, cache versions and key records live here.
import { Redis } from "@upstash/redis";
import { config } from "@/lib/env";

export interface LimitStore {
  kind: "memory" | "upstash";
  /** The Upstash client, when there is one. */
  redis?: Redis;
  ping(): Promise<void>;
}

function buildStore(): LimitStore {
  const target = config().limitStore;
  if (target.kind === "memory") return { kind: "memory", ping: async () => {} };
  const redis = new Redis({
    url: target.url,
    token: target.token,
    // One bounded attempt per call (DECISIONS 18a): no retries, aborted after the timeout.
    retry: false,
    signal: () => AbortSignal.timeout(target.timeoutMs),
    enableTelemetry: false,
  });
  return {
    kind: "upstash",
    redis,
    ping: async () => {
      await redis.ping();
    },
  };
}

const globalRef = globalThis as typeof globalThis & { __sheetapiLimitStore?: LimitStore };

export function getLimitStore(): LimitStore {
  globalRef.__sheetapiLimitStore ??= buildStore();
  return globalRef.__sheetapiLimitStore;
}
