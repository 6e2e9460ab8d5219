// Form keys end to end on the real stores: Postgres, and Upstash's protocol (emulators/upstash)
// over the real Redis. Skipped off CI when either is not reachable.
import { afterAll, beforeAll, describe, it } from "vitest";
import { startUpstashEmulator, type UpstashEmulator } from "@/emulators/upstash/server";
import { upstashStore } from "@/lib/store/store";
import { upstashRedis } from "@/lib/store/upstash-requester";
import { formKeySuite } from "@/testing/form-key-suite";
import { testPostgresUrl, testRedisUrl } from "@/testing/services";

const postgresUrl = await testPostgresUrl();
const redisUrl = await testRedisUrl();
let emulator: UpstashEmulator | undefined;

if (postgresUrl && redisUrl) {
  beforeAll(async () => {
    emulator = await startUpstashEmulator({ redisUrl, token: "t" });
  });
  afterAll(async () => {
    await emulator?.stop();
  });
  formKeySuite("postgres, upstash over redis", {
    postgresUrl,
    makeStore: () => upstashStore(upstashRedis({ url: emulator!.url, token: "t", timeoutMs: 5_000 })),
  });
} else {
  describe.skip("form keys on the real stores", () => it("needs Postgres and Redis", () => undefined));
}
