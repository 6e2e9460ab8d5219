// The usage ledger on the Upstash store (emulators/upstash over the real Redis).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, setDatabase, type DatabaseHandle } from "@/db/client";
import { usageByDay } from "@/db/queries/usage";
import { createUser } from "@/db/queries/users";
import { startUpstashEmulator, type UpstashEmulator } from "@/emulators/upstash/server";
import { freshPglite, freshPostgres } from "@/testing/databases";
import { testPostgresUrl, testRedisUrl } from "@/testing/services";
import { recordUsage } from "./metering";
import { utcDay } from "./utc-day";
import { setLimitStore, upstashStore, type LimitStore } from "@/lib/store/store";
import { upstashRedis } from "@/lib/store/upstash-requester";
import { rollUpUsage } from "./usage-ledger";

const redisUrl = await testRedisUrl();
const postgresUrl = await testPostgresUrl();
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

  const total = async () =>
    (await usageByDay({ userId, from: "2000-01-01", to: "9999-12-31" })).reduce((sum, r) => sum + r.count, 0);
  const count = (n: number, status = 200) =>
    Promise.all(
      Array.from({ length: n }, () => recordUsage({ userId, sheetId: "s1", keyId: "k1", status, storeAnswered: true })),
    );

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
    await ledger.add(await getDatabaseHandle().scope(), {
      counts: [
        [usageField(gone), 3],
        [sheetStatField("deleted-sheet", gone.day, "cacheHits"), 2],
      ],
      latest: [],
    });
    await count(4);
    await rollUpUsage();
    expect(await total()).toBe(before + 4);
    // Nothing left behind in the store for the next roll-up to trip on.
    expect(await ledger.seal(await getDatabaseHandle().scope(), "check")).toEqual([]);
  });

  it("finishes a batch whose roller died before dropping it, without counting it twice", async () => {
    await count(7);
    // A roller that sealed the batch and wrote it, then died before dropping it from the store.
    const ledger = store.ledger!;
    const dying = {
      ...ledger,
      drop: async () => {
        throw new Error("killed");
      },
    };
    setLimitStore({ ...store, ledger: dying });
    await expect(rollUpUsage()).rejects.toThrow("killed");
    expect(await total()).toBe(54);
    setLimitStore(store);
    await count(2);
    await rollUpUsage();
    expect(await total()).toBe(56);
  });
});

describe.skipIf(!redisUrl || !postgresUrl)("usage ledger of one Postgres reached by two addresses", () => {
  let bridge: UpstashEmulator;
  let first: DatabaseHandle;
  let second: DatabaseHandle;
  let userId: string;

  beforeAll(async () => {
    bridge = await startUpstashEmulator({ redisUrl: redisUrl!, token: "t" });
    setLimitStore(upstashStore(upstashRedis({ url: bridge.url, token: "t", timeoutMs: 5_000 })));
    first = await freshPostgres(postgresUrl!);
    // The same database, spelled otherwise: another host name for the same server and a parameter.
    const other = new URL(first.url!);
    other.hostname = other.hostname === "localhost" ? "127.0.0.1" : "localhost";
    other.searchParams.set("application_name", "second-instance");
    second = openDatabase({ kind: "postgres", url: other.toString() });
    setDatabase(first);
    userId = (await createUser({ email: "two-addresses@example.com", plan: "business" })).id;
  });
  afterAll(async () => {
    setLimitStore(undefined);
    await bridge?.stop();
    await second?.close();
    await first?.close();
  });

  const total = async () =>
    (await usageByDay({ userId, from: "2000-01-01", to: "9999-12-31" })).reduce((sum, r) => sum + r.count, 0);

  it("rolls up, from either address, the counts an instance on the other one left", async () => {
    expect(await second.scope()).toBe(await first.scope());
    // The first instance counts, then is killed before its roll-up.
    await Promise.all(
      Array.from({ length: 6 }, () =>
        recordUsage({ userId, sheetId: "s1", keyId: "k1", status: 200, storeAnswered: true }),
      ),
    );
    setDatabase(second);
    await rollUpUsage();
    expect(await total()).toBe(6);
  });

  it("still rolls up a ledger filed under the address, as versions before the database's id left it", async () => {
    const ledger = (await import("@/lib/store/store")).getLimitStore().ledger!;
    const { usageField } = await import("./ledger-fields");
    setDatabase(second);
    await ledger.add(second.addressScope!, {
      counts: [[usageField({ userId, sheetId: "s1", keyId: "k1", day: utcDay(Date.now()), statusClass: "2xx" }), 2]],
      latest: [],
    });
    await rollUpUsage();
    expect(await total()).toBe(8);
  });
});
