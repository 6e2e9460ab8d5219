// The limit stores a test runs against: the in-process store always, and Upstash through
// emulators/upstash over the real Redis when one is reachable (required on CI).
import { afterAll, beforeAll } from "vitest";
import { startUpstashEmulator, type UpstashEmulator } from "@/emulators/upstash/server";
import { memoryStore, setLimitStore, upstashStore, type LimitStore } from "@/lib/store/store";
import { upstashRedis } from "@/lib/store/upstash-requester";
import { startTestService, type TestService } from "./service";
import { testRedisUrl } from "./services";

export interface StoresUnderTest {
  /** For describe.each: a name and a factory per store. */
  stores: [string, () => LimitStore][];
  /** Starts the Upstash bridge (call in beforeAll). */
  start(): Promise<void>;
  /** Stops it and drops any store the test installed (call in afterAll). */
  stop(): Promise<void>;
}

export async function storesUnderTest(): Promise<StoresUnderTest> {
  const redisUrl = await testRedisUrl();
  let emulator: UpstashEmulator | undefined;
  const stores: [string, () => LimitStore][] = [["memory", () => memoryStore()]];
  if (redisUrl) stores.push(["upstash", () => upstashStore(upstashRedis({ url: emulator!.url, token: "t", timeoutMs: 5_000 }))]);
  return {
    stores,
    start: async () => {
      if (redisUrl) emulator = await startUpstashEmulator({ redisUrl, token: "t" });
    },
    stop: async () => {
      setLimitStore(undefined);
      await emulator?.stop();
    },
  };
}

/**
 * The usual setup of an integration test file: the service (testing/service.ts) and the limit
 * stores under test, started before the file's tests and stopped after them. `use` receives the
 * service once it runs; the stores are returned for describe.each.
 */
export async function serviceAndStores(use: (svc: TestService) => void, options?: Parameters<typeof startTestService>[0]): Promise<StoresUnderTest["stores"]> {
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
