// An instance killed (-9) right after answering has lost nothing it counted: after only the
// ledger's roll-up (what another instance would do), every count is in Postgres.
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb, rowsOf } from "@/db/client";
import { createUser } from "@/db/queries/users";
import { DEMO_SPREADSHEET_ID } from "@/emulators/google/seed";
import { startUpstashEmulator, type UpstashEmulator } from "@/emulators/upstash/server";
import { flushAll } from "@/lib/lifecycle/flushes";
import { registeredKey } from "@/testing/google";
import { rowsClient } from "@/testing/rows-client";
import { startTestService, type TestService } from "@/testing/service";
import { testRedisUrl } from "@/testing/services";
import { setLimitStore, upstashStore } from "@/lib/store/store";
import { upstashRedis } from "@/lib/store/upstash-requester";
import { rollUpUsage } from "./usage-ledger";

const redisUrl = await testRedisUrl();
let svc: TestService;
let bridge: UpstashEmulator;

describe.skipIf(!redisUrl)("a killed instance loses no count (Upstash store)", () => {
  beforeAll(async () => {
    svc = await startTestService();
    bridge = await startUpstashEmulator({ redisUrl: redisUrl!, token: "t" });
    setLimitStore(upstashStore(upstashRedis({ url: bridge.url, token: "t", timeoutMs: 5_000 })));
  });
  afterAll(async () => {
    setLimitStore(undefined);
    await bridge?.stop();
    await svc?.stop();
  });

  const recorded = async () => {
    const [row] = rowsOf<{ usage: number; reads: number; google_calls: number; last_used: string | Date | null }>(
      await getDb().execute(sql`
      select
        (select coalesce(sum(count), 0)::int from usage_daily) as usage,
        (select coalesce(sum(cache_hits + cache_misses + stale_served), 0)::int from sheet_stats_daily) as reads,
        (select coalesce(sum(google_calls), 0)::int from sheet_stats_daily) as google_calls,
        (select max(last_used_at) from api_keys) as last_used`),
    );
    return {
      usage: row!.usage,
      reads: row!.reads,
      googleCalls: row!.google_calls,
      lastUsed: row!.last_used ? new Date(row!.last_used).getTime() : null,
    };
  };

  it("finds usage, sheet stats and the key's last use in Postgres after the ledger's roll-up alone", async () => {
    const user = await createUser({ email: "killed@example.com", plan: "business" });
    const api = rowsClient(DEMO_SPREADSHEET_ID, await registeredKey(user, DEMO_SPREADSHEET_ID));
    await rollUpUsage();
    await flushAll();
    const before = await recorded();
    expect(before.lastUsed).toBeNull();

    const started = Date.now();
    const answers = await Promise.all(Array.from({ length: 12 }, () => api.list("Products", "limit=5")));
    expect(answers.map((a) => a.status)).toEqual(Array(12).fill(200));
    const missing = await api.get("Products", "999999");
    expect(missing.status).toBe(404);

    // Nothing written to Postgres by this process yet: killed now, it would leave all of it in the store.
    expect(await recorded()).toEqual(before);
    await rollUpUsage();
    const after = await recorded();
    expect(after.usage - before.usage).toBe(13);
    // Each of the 12 list reads and the one-row read, served from the cache or from Google.
    expect(after.reads - before.reads).toBe(13);
    expect(after.googleCalls - before.googleCalls).toBeGreaterThanOrEqual(1);
    expect(after.lastUsed).toBeGreaterThanOrEqual(Math.floor(started / 1000) * 1000);

    // What this process still held in memory, which a kill -9 would have lost: nothing.
    await flushAll();
    expect(await recorded()).toEqual(after);
  });
});
