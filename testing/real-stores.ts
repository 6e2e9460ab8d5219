// A key suite on the real stores: Postgres, and Upstash's protocol (emulators/upstash) over the
// real Redis. Skipped off CI when either is not reachable.
import { afterAll, beforeAll, describe, it } from "vitest";
import { startUpstashEmulator, type UpstashEmulator } from "@/emulators/upstash/server";
import { upstashStore, type LimitStore } from "@/lib/store/store";
import { upstashRedis } from "@/lib/store/upstash-requester";
import { testPostgresUrl, testRedisUrl } from "@/testing/services";

export interface RealStores {
  postgresUrl: string;
  makeStore: () => LimitStore;
}

export async function onRealStores(what: string, suite: (name: string, stores: RealStores) => void): Promise<void> {
  const postgresUrl = await testPostgresUrl();
  const redisUrl = await testRedisUrl();
  if (!postgresUrl || !redisUrl) {
    describe.skip(`${what} on the real stores`, () => it("needs Postgres and Redis", () => undefined));
    return;
  }
  let emulator: UpstashEmulator | undefined;
  beforeAll(async () => {
    emulator = await startUpstashEmulator({ redisUrl, token: "t" });
  });
  afterAll(async () => {
    await emulator?.stop();
  });
  suite("postgres, upstash over redis", {
    postgresUrl,
    makeStore: () => upstashStore(upstashRedis({ url: emulator!.url, token: "t", timeoutMs: 5_000 })),
  });
}
