// The memory store and the Upstash store (through emulators/upstash to the real Redis) give the
// same answers.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { storesUnderTest } from "@/lib/testing/stores";
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
});

describe.each(stores)("%s store: counters and locks", (_name, make) => {
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

  it("locks for one holder at a time and lets only the holder unlock", async () => {
    const store = make();
    expect(await store.tryLock(`${prefix}:lock`, "a", 5000)).toBe(true);
    expect(await store.tryLock(`${prefix}:lock`, "b", 5000)).toBe(false);
    await store.unlock(`${prefix}:lock`, "b");
    expect(await store.tryLock(`${prefix}:lock`, "b", 5000)).toBe(false);
    await store.unlock(`${prefix}:lock`, "a");
    expect(await store.tryLock(`${prefix}:lock`, "b", 5000)).toBe(true);
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
});
