// The fair lock on both stores: arrival order, leases that run out (a holder that died), waiters
// that stop asking, renewal during long work, giving up, and the fence a lost lease raises.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiError } from "@/lib/errors";
import { storesUnderTest } from "@/testing/stores";
import { heldLock, withLock } from "./lock";
import { setLimitStore, type LimitStore } from "./store";

const { stores, start, stop } = await storesUnderTest();

beforeAll(start);
afterAll(stop);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The store, with a count of waiters that have taken their ticket (a first turn). */
function observed(store: LimitStore) {
  let ticketed = 0;
  const proxy: LimitStore = {
    ...store,
    lockTurn: async (...args) => {
      const turn = await store.lockTurn(...args);
      if (args[2] === 0) ticketed++;
      return turn;
    },
  };
  return { store: proxy, ticketed: () => ticketed };
}

async function until(check: () => boolean, ms = 5000) {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error("timed out");
    await sleep(2);
  }
}

describe.each(stores)("%s store: fair lock", (name, make) => {
  let n = 0;
  const key = () => `test:lock:${process.pid}:${Date.now()}:${name}:${++n}`;

  it("serves waiters in the order they arrived, one at a time", async () => {
    const { store, ticketed } = observed(make());
    setLimitStore(store);
    const k = key();
    const order: string[] = [];
    let inside = 0;
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const enter = (who: string, work: () => Promise<unknown> = () => sleep(5)) =>
      withLock(k, async () => {
        expect(++inside).toBe(1);
        order.push(who);
        await work();
        inside--;
      });
    const all = [enter("first", () => gate)];
    await until(() => order.length === 1);
    for (const who of ["b", "c", "d", "e", "f"]) {
      const before = ticketed();
      all.push(enter(who));
      await until(() => ticketed() > before);
    }
    release();
    await Promise.all(all);
    expect(order).toEqual(["first", "b", "c", "d", "e", "f"]);
  });

  it("orders by ticket across instances, not by who asks first", async () => {
    const a = make();
    // Two clients of one Redis; the memory store is one process's, so both ends share it.
    const b = name === "memory" ? a : make();
    const k = key();
    expect((await a.lockTurn(k, "holder", 0, 60_000, 5000)).held).toBe(true);
    const early = await b.lockTurn(k, "early", 0, 60_000, 5000);
    const late = await a.lockTurn(k, "late", 0, 60_000, 5000);
    expect([early.held, early.ahead, late.held, late.ahead]).toEqual([false, 0, false, 1]);
    await a.releaseLock(k, "holder");
    expect((await a.lockTurn(k, "late", late.ticket, 60_000, 5000)).held).toBe(false);
    expect((await b.lockTurn(k, "early", early.ticket, 60_000, 5000)).held).toBe(true);
    await b.releaseLock(k, "early");
    expect((await a.lockTurn(k, "late", late.ticket, 60_000, 5000)).held).toBe(true);
    await a.releaseLock(k, "late");
  });

  it("goes to the next waiter when a holder that died lets its lease run out", async () => {
    const store = make();
    setLimitStore(store);
    const k = key();
    // Taken and never renewed nor released: a process that crashed while holding it.
    expect((await store.lockTurn(k, "crashed", 0, 300, 5000)).held).toBe(true);
    const t0 = Date.now();
    expect(await withLock(k, async () => "mine", { waitMs: 5000 })).toBe("mine");
    expect(Date.now() - t0).toBeGreaterThanOrEqual(250);
    expect(Date.now() - t0).toBeLessThan(3000);
  });

  it("drops a waiter that stopped asking, so it cannot block the ones behind it", async () => {
    const store = make();
    const k = key();
    expect((await store.lockTurn(k, "holder", 0, 60_000, 5000)).held).toBe(true);
    expect(await store.lockTurn(k, "gone", 0, 60_000, 200)).toMatchObject({ held: false, ahead: 0 });
    const next = await store.lockTurn(k, "next", 0, 60_000, 5000);
    expect(next).toMatchObject({ held: false, ahead: 1 });
    await store.releaseLock(k, "holder");
    await sleep(300);
    expect((await store.lockTurn(k, "next", next.ticket, 60_000, 5000)).held).toBe(true);
    await store.releaseLock(k, "next");
  });

  it("renews the lease while the work goes on", async () => {
    const store = make();
    setLimitStore(store);
    const k = key();
    await withLock(
      k,
      async () => {
        await sleep(800);
        const intruder = await store.lockTurn(k, "intruder", 0, 1000, 5000);
        await store.releaseLock(k, "intruder");
        expect(intruder.held).toBe(false);
      },
      { leaseMs: 300 },
    );
  });

  it("gives up after its wait with a 503, leaving the queue so it blocks no one", async () => {
    const store = make();
    setLimitStore(store);
    const k = key();
    expect((await store.lockTurn(k, "holder", 0, 60_000, 5000)).held).toBe(true);
    const err = await withLock(k, async () => "never", { waitMs: 200 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).code).toBe("service_unavailable");
    await store.releaseLock(k, "holder");
    expect((await store.lockTurn(k, "after", 0, 60_000, 5000)).held).toBe(true);
    await store.releaseLock(k, "after");
  });

  it("records under the lock only while the lease is held (the fence of a stalled holder)", async () => {
    const store = make();
    const k = key();
    const pending = `${k}:pending`;
    expect((await store.lockTurn(k, "slow", 0, 200, 5000)).held).toBe(true);
    expect(await store.hsetIfHolder(k, "slow", pending, "1", { kind: "update" }, 60)).toBe(true);
    expect(await store.hsetIfHolder(k, "other", pending, "2", { kind: "update" }, 60)).toBe(false);
    await sleep(300);
    expect((await store.lockTurn(k, "next", 0, 60_000, 5000)).held).toBe(true);
    expect(await store.renewLock(k, "slow", 60_000)).toBe(false);
    expect(await store.hsetIfHolder(k, "slow", pending, "3", { kind: "update" }, 60)).toBe(false);
    expect(Object.keys(await store.hgetall(pending))).toEqual(["1"]);
    await store.releaseLock(k, "next");
  });

  it("tells the work which lock it holds", async () => {
    setLimitStore(make());
    const k = key();
    expect(heldLock()).toBeUndefined();
    expect(await withLock(k, async () => heldLock()?.key)).toBe(k);
  });
});
