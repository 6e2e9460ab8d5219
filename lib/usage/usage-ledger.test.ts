// The usage ledger on the Upstash store (emulators/upstash over the real Redis): counts survive
// the process that took them, roll up into Postgres exactly once when several instances roll up
// at the same moment, and a roll-up that died after writing (before dropping its batch) is not
// counted again by the next one.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setDatabase, type DatabaseHandle } from "@/db/client";
import { usageByDay } from "@/db/queries/usage";
import { createUser } from "@/db/queries/users";
import { startUpstashEmulator, type UpstashEmulator } from "@/emulators/upstash/server";
import { freshPglite } from "@/testing/databases";
import { testRedisUrl } from "@/testing/services";
import { recordUsage } from "./metering";
import { utcDay } from "./utc-day";
import { setLimitStore, upstashStore, type LimitStore } from "@/lib/store/store";
import { upstashRedis } from "@/lib/store/upstash-requester";
import { rollUpUsage } from "./usage-ledger";

const redisUrl = await testRedisUrl();
let bridge: UpstashEmulator;
let db: DatabaseHandle;
let store: LimitStore;
let userId: string;

describe.skipIf(!redisUrl)("usage ledger (Upstash store)", () => {
  beforeAll(async () => {
    bridge = await startUpstashEmulator({ redisUrl: redisUrl!, token: "t" });
    store = upstashStore(upstashRedis({ url: bridge.url, token: "t", timeoutMs: 5_000 }));
    setLimitStore(store);
    db = await freshPglite();
    setDatabase(db);
    userId = (await createUser({ email: "ledger@example.com", plan: "business" })).id;
  });
  afterAll(async () => {
    setLimitStore(undefined);
    await bridge?.stop();
    await db?.close();
  });

  const total = async () => (await usageByDay({ userId, from: "2000-01-01", to: "9999-12-31" })).reduce((sum, r) => sum + r.count, 0);
  const count = (n: number, status = 200) =>
    Promise.all(Array.from({ length: n }, () => recordUsage({ userId, sheetId: "s1", keyId: "k1", status, storeAnswered: true })));

  it("keeps the counts in the store until a roll-up, then adds them once, however many roll up at once", async () => {
    await count(40);
    await count(3, 404);
    // Nothing in Postgres yet: a process killed now would have lost none of them.
    expect(await total()).toBe(0);
    await Promise.all([rollUpUsage(), rollUpUsage(), rollUpUsage()]);
    expect(await total()).toBe(43);
    const rows = await usageByDay({ userId, from: utcDay(Date.now()), to: "9999-12-31" });
    expect(Object.fromEntries(rows.map((r) => [r.statusClass, r.count]))).toEqual({ "2xx": 40, "4xx": 3 });
    await rollUpUsage();
    expect(await total()).toBe(43);
  });

  it("leaves out counts of an account or sheet deleted since, instead of holding the batch back", async () => {
    const before = await total();
    const ledger = store.ledger!;
    const { getDatabaseHandle } = await import("@/db/client");
    const { sheetStatField, usageField } = await import("./ledger-fields");
    const gone = { userId: "deleted-account", sheetId: "s1", keyId: "k9", day: utcDay(Date.now()), statusClass: "2xx" };
    await ledger.add(getDatabaseHandle().scope, { counts: [[usageField(gone), 3], [sheetStatField("deleted-sheet", gone.day, "cacheHits"), 2]], latest: [] });
    await count(4);
    await rollUpUsage();
    expect(await total()).toBe(before + 4);
    // Nothing left behind in the store for the next roll-up to trip on.
    expect(await ledger.seal(getDatabaseHandle().scope, "check")).toEqual([]);
  });

  it("finishes a batch whose roller died before dropping it, without counting it twice", async () => {
    await count(7);
    // A roller that sealed the batch and wrote it, then died before dropping it from the store.
    const ledger = store.ledger!;
    const dying = { ...ledger, drop: async () => { throw new Error("killed"); } };
    setLimitStore({ ...store, ledger: dying });
    await expect(rollUpUsage()).rejects.toThrow("killed");
    expect(await total()).toBe(54);
    setLimitStore(store);
    await count(2);
    await rollUpUsage();
    expect(await total()).toBe(56);
  });
});
