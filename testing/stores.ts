// The limit stores a test runs against: the in-process store always and, when a real Redis is
// reachable (required on CI), Upstash through emulators/upstash over it and the plain Redis store
// on it directly.
import { afterAll, beforeAll } from "vitest";
import { startUpstashEmulator, type UpstashEmulator } from "@/emulators/upstash/server";
import { memoryStore, redisStore, setLimitStore, upstashStore, type LimitStore } from "@/lib/store/store";
import { redisConnection, type RedisConnection } from "@/lib/store/redis-store";
import { upstashRedis } from "@/lib/store/upstash-requester";
import { startTestService, type TestService } from "./service";
import { testRedisUrl } from "./services";

export interface StoresUnderTest {
  /** For describe.each: a name and a factory per store. */
  stores: [string, () => LimitStore][];
  /** Starts the Upstash bridge (call in beforeAll). */
  start(): Promise<void>;
  /** Stops it, closes the Redis connections and drops any store the test installed (call in afterAll). */
  stop(): Promise<void>;
}

export async function storesUnderTest(): Promise<StoresUnderTest> {
  const redisUrl = await testRedisUrl();
  let emulator: UpstashEmulator | undefined;
  const stores: [string, () => LimitStore][] = [["memory", () => memoryStore()]];
  const connections: RedisConnection[] = [];
  if (redisUrl) {
    stores.push(["upstash", () => upstashStore(upstashRedis({ url: emulator!.url, token: "t", timeoutMs: 5_000 }))]);
    stores.push([
      "redis",
      () => {
        const connection = redisConnection({ url: redisUrl, timeoutMs: 5_000 });
        connections.push(connection);
        return redisStore(connection);
      },
    ]);
  }
  return {
    stores,
    start: async () => {
      if (redisUrl) emulator = await startUpstashEmulator({ redisUrl, token: "t" });
    },
    stop: async () => {
      setLimitStore(undefined);
      await emulator?.stop();
      await Promise.all(connections.splice(0).map((c) => c.close()));
    },
  };
}

/**
 * The usual setup of an integration test file: the service (testing/service.ts) and the limit
 * stores under test, started before the file's tests and stopped after them. `use` receives the
 * service once it runs; the stores are returned for describe.each.
 */
export async function serviceAndStores(
  use: (svc: TestService) => void,
  options?: Parameters<typeof startTestService>[0],
): Promise<StoresUnderTest["stores"]> {
  const { stores, start, stop } = await storesUnderTest();
  let svc: TestService | undefined;
  beforeAll(async () => {
    svc = await startTestService(options);
    use(svc);
    await start();
  });
  afterAll(async () => {
    await stop();
    await svc?.stop();
  });
  return stores;
}
