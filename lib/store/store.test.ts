// The memory store and the Upstash store (through emulators/upstash to the real Redis) give the
// same answers.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { storesUnderTest } from "@/testing/stores";
import { memoryStore } from "./store";

const { stores, start, stop } = await storesUnderTest();

beforeAll(start);
afterAll(stop);

describe.each(stores)("%s store", (_name, make) => {
  const prefix = `test:store:${process.pid}:${Date.now()}:${_name}`;

  it("reads several JSON values at once", async () => {
    const store = make();
    await store.setIfNewer(`${prefix}:a`, { v: 1, name: "a" } as never, 60);
    expect(await store.mget([`${prefix}:a`, `${prefix}:missing`])).toEqual([{ v: 1, name: "a" }, null]);
  });

  it("never lets an older version replace a newer one", async () => {
    const store = make();
    const key = `${prefix}:versioned`;
    await store.setIfNewer(key, { v: 2, revoked: true } as never, 60);
    await store.setIfNewer(key, { v: 1, revoked: false } as never, 60);
    await store.setIfNewer(key, { v: 2, revoked: false } as never, 60);
    expect(await store.mget([key])).toEqual([{ v: 2, revoked: true }]);
    await store.setIfNewer(key, { v: 3, revoked: true, name: "x" } as never, 60);
    expect(await store.mget([key])).toEqual([{ v: 3, revoked: true, name: "x" }]);
    await store.del(key);
    expect(await store.mget([key])).toEqual([null]);
  });

  it("claims a key once, for less than a second when asked (one Drive check per interval across instances)", async () => {
    const store = make();
    const key = `${prefix}:claim`;
    expect([await store.putIfAbsent(key, {}, 0.2), await store.putIfAbsent(key, {}, 0.2)]).toEqual([true, false]);
    await new Promise((r) => setTimeout(r, 300));
    expect(await store.putIfAbsent(key, {}, 0.2)).toBe(true);
  });
});

describe.each(stores)("%s store: hashes (pending writes)", (_name, make) => {
  const key = `test:store:hash:${process.pid}:${Date.now()}:${_name}`;

  it("sets, lists and removes fields, and forgets an emptied hash", async () => {
    const store = make();
    expect(await store.hgetall(key)).toEqual({});
    await store.hset(key, "11", { kind: "create", at: 1 }, 60);
    await store.hset(key, "12", { kind: "delete", at: 2 }, 60);
    expect(await store.hgetall(key)).toEqual({ "11": { kind: "create", at: 1 }, "12": { kind: "delete", at: 2 } });
    await store.hdel(key, "11");
    await store.hdel(key, "missing");
    expect(await store.hgetall(key)).toEqual({ "12": { kind: "delete", at: 2 } });
    await store.hdel(key, "12");
    expect(await store.hgetall(key)).toEqual({});
  });
});

describe.each(stores)("%s store: counters", (_name, make) => {
  const prefix = `test:store2:${process.pid}:${Date.now()}:${_name}`;

  it("counts", async () => {
    const store = make();
    expect(await store.incr(`${prefix}:c`, 60)).toBe(1);
    expect(await store.incr(`${prefix}:c`, 60)).toBe(2);
  });

  it("allocates distinct ranges above a floor, even concurrently", async () => {
    const store = make();
    expect(await store.allocate(`${prefix}:ids`, 41, 1, 60)).toBe(42);
    expect(await store.allocate(`${prefix}:ids`, 10, 3, 60)).toBe(45);
    expect(await store.allocate(`${prefix}:ids`, 100, 1, 60)).toBe(101);
    const got = await Promise.all(Array.from({ length: 50 }, () => store.allocate(`${prefix}:ids`, 0, 1, 60)));
    expect(new Set(got).size).toBe(50);
    expect(Math.max(...got)).toBe(151);
  });
});

describe("memory store", () => {
  it("expires entries after their TTL", async () => {
    let now = 1_000_000;
    const store = memoryStore(() => now);
    await store.setIfNewer("k", { v: 1 }, 10);
    now += 9_999;
    expect(await store.mget(["k"])).toEqual([{ v: 1 }]);
    now += 1;
    expect(await store.mget(["k"])).toEqual([null]);
  });

  it("kept in a file, comes back in a new store (a restart): counts and records, not burst windows, locks or expired entries", async () => {
    const { mkdtempSync, existsSync } = await import("node:fs");
    const { tmpdir } = await import("node:os");
    const { join } = await import("node:path");
    const file = join(mkdtempSync(join(tmpdir(), "sheetapi-store-")), "limit-store.json");
    const now = Date.now();
    const spec = {
      now,
      member: "m",
      burst: { key: "burst", limit: 10, windowMs: 60_000 },
      counters: [{ key: "month", limit: 100, expireAt: now + 3_600_000 }],
    };
    const first = memoryStore(Date.now, { file });
    for (let i = 0; i < 3; i++) await first.consume(spec);
    await first.putIfAbsent("idem", { answer: "201" }, 3600);
    await first.put("brief", { gone: true }, 0.001);
    expect((await first.lockTurn("lock", "holder", 0, 15_000, 5_000)).held).toBe(true);
    await expect.poll(() => existsSync(file), { timeout: 5_000 }).toBe(true);

    const again = memoryStore(Date.now, { file });
    expect((await again.peek(spec)).used).toEqual([0, 3]);
    expect(await again.mget(["idem", "brief"])).toEqual([{ answer: "201" }, null]);
    expect((await again.lockTurn("lock", "other", 0, 15_000, 5_000)).held).toBe(true);
    // A store without a file keeps nothing.
    expect((await memoryStore().peek(spec)).used).toEqual([0, 0]);
  });
});

describe.each(stores)("%s store: one-trip authorize and peek", (_name, make) => {
  const prefix = `test:store3:${process.pid}:${Date.now()}:${_name}`;
  const spec = (member: string, now: number) => ({
    now,
    member,
    burst: { key: `${prefix}:burst`, limit: 3, windowMs: 60_000 },
    counters: [{ key: `${prefix}:month`, limit: 100, expireAt: now + 3_600_000 }],
  });
  const live = {
    v: 1,
    id: "key_1",
    sheetId: "sheet-a",
    userId: "user-a",
    hash: "h",
    permissions: ["read"],
    revoked: false,
  };

  it("counts only a live key of the expected sheet and account, returning the records either way", async () => {
    const store = make();
    const now = Date.now();
    await store.setIfNewer(`${prefix}:key`, live as never, 60);
    await store.setIfNewer(`${prefix}:sheet`, { v: 1, id: "sheet-a" } as never, 60);
    const reads = [`${prefix}:key`, `${prefix}:sheet`, `${prefix}:missing`];

    const counted = await store.authorize(reads, { sheetId: "sheet-a", userId: "user-a" }, spec("r1", now));
    expect(counted.values).toEqual([live, { v: 1, id: "sheet-a" }, null]);
    expect(counted.consumed).toEqual({ exceeded: -1, used: [1, 1], oldestBurst: now });

    for (const expect_ of [
      { sheetId: "sheet-b", userId: "user-a" },
      { sheetId: "sheet-a", userId: "user-b" },
    ]) {
      expect((await store.authorize(reads, expect_, spec("r2", now))).consumed).toBeNull();
    }
    await store.setIfNewer(`${prefix}:key`, { ...live, v: 2, revoked: true } as never, 60);
    expect(
      (await store.authorize(reads, { sheetId: "sheet-a", userId: "user-a" }, spec("r3", now))).consumed,
    ).toBeNull();
    expect(
      (await store.authorize([`${prefix}:nokey`], { sheetId: "sheet-a", userId: "user-a" }, spec("r4", now))).consumed,
    ).toBeNull();
    // Nothing but the first request was counted.
    expect(await store.peek(spec("peek", now + 1))).toEqual({ exceeded: -1, used: [1, 1], oldestBurst: now });
  });

  it("peeks without counting, and sees the burst window slide", async () => {
    const store = make();
    const now = Date.now() + 1_000_000;
    const s = {
      ...spec("a", now),
      burst: { key: `${prefix}:burst2`, limit: 3, windowMs: 60_000 },
      counters: [{ key: `${prefix}:m2`, limit: 5, expireAt: now + 3_600_000 }],
    };
    await store.consume(s);
    await store.consume({ ...s, member: "b", now: now + 30_000 });
    expect(await store.peek({ ...s, now: now + 40_000 })).toEqual({ exceeded: -1, used: [2, 2], oldestBurst: now });
    expect(await store.peek({ ...s, now: now + 60_000 })).toEqual({
      exceeded: -1,
      used: [1, 2],
      oldestBurst: now + 30_000,
    });
    expect(await store.peek({ ...s, now: now + 60_000 })).toEqual({
      exceeded: -1,
      used: [1, 2],
      oldestBurst: now + 30_000,
    });
  });
});
