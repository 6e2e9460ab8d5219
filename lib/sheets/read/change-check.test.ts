// The change epoch's rule: a new modifiedTime starts a new epoch unless writes through the
// service explain it (no later than the newest write the service confirmed, on any instance; or,
// where that time is unknown, the write count moved); Drive's silence or failure changes nothing.
import { afterAll, describe, expect, it } from "vitest";
import { memoryStore, setLimitStore, type LimitStore } from "@/lib/store/store";
import { changeEpoch, driveClaimKey, noteAnswer, type Watch } from "./change-check";

const watch = (over: Partial<Watch> = {}): Watch => ({
  modifiedTime: "t0",
  writes: 3,
  epoch: 7,
  checkedAt: 0,
  ...over,
});

describe("noteAnswer", () => {
  it("keeps the epoch while the file is unchanged or Drive cannot tell", () => {
    const w = watch();
    noteAnswer(w, "t0", 3, 10);
    noteAnswer(w, undefined, 9, 20);
    expect([w.epoch, w.modifiedTime, w.checkedAt]).toEqual([7, "t0", 20]);
  });

  it("starts a new epoch for a change no write explains", () => {
    const w = watch();
    noteAnswer(w, "t1", 3, 10);
    expect(w.epoch).not.toBe(7);
    expect(w.modifiedTime).toBe("t1");
  });

  it("takes a change as explained when the write count moved (the time of the newest write unknown), or it is no later than the newest write", () => {
    const byCount = watch();
    noteAnswer(byCount, "t1", 4, 10);
    expect([byCount.epoch, byCount.writes]).toEqual([7, 4]);
    const wroteAt = Date.parse("2026-01-01T10:00:00.500Z");
    const byOwnWrite = watch({ modifiedTime: "2026-01-01T09:00:00.000Z" });
    noteAnswer(byOwnWrite, "2026-01-01T10:00:00.400Z", 4, 10, wroteAt); // the write itself, as Drive dates it
    expect(byOwnWrite.epoch).toBe(7);
  });

  it("does not take an edit made after the newest write for the write, though the write count moved", () => {
    const wroteAt = Date.parse("2026-01-01T10:00:00.500Z");
    const w = watch({ modifiedTime: "2026-01-01T09:00:00.000Z" });
    noteAnswer(w, "2026-01-01T10:00:01.000Z", 4, 10, wroteAt); // an edit in the Sheets UI after the write
    expect(w.epoch).not.toBe(7);
    const afterEdit = w.epoch;
    // A write counted, but confirmed before the change Drive reports: not explained.
    noteAnswer(w, "2026-01-01T10:00:02.000Z", 5, 20, wroteAt);
    expect(w.epoch).not.toBe(afterEdit);
    // Another instance's write, confirmed after the next change, explains it.
    const afterOwn = w.epoch;
    noteAnswer(w, "2026-01-01T10:00:03.000Z", 7, 30, Date.parse("2026-01-01T10:00:03.200Z"));
    expect(w.epoch).toBe(afterOwn);
  });

  it("lets writes explain one later change only: a write's change that Drive reports late still counts once", () => {
    const w = watch();
    noteAnswer(w, "t0", 4, 10); // written, Drive still silent (its time lags)
    noteAnswer(w, "t1", 4, 20); // the write shows now: explained
    expect(w.epoch).toBe(7);
    noteAnswer(w, "t2", 4, 30); // an edit in the Sheets UI
    expect(w.epoch).not.toBe(7);
  });

  it("starts a new epoch at Drive's first answer after it could not tell", () => {
    const w = watch({ modifiedTime: undefined, writes: undefined });
    noteAnswer(w, "t0", 3, 10);
    expect(w.epoch).not.toBe(7);
  });
});

describe("changeEpoch on an instance that lost the Drive check to another", () => {
  afterAll(() => setLimitStore(undefined));

  it("looks for the other instance's answer in the store at most once per short interval, not on every read", async () => {
    const inner = memoryStore();
    let looks = 0;
    const counting: LimitStore = new Proxy(inner, {
      get: (target, prop, receiver) => {
        if (prop === "mget") return (keys: string[]) => (looks++, target.mget(keys));
        return Reflect.get(target, prop, receiver) as unknown;
      },
    });
    setLimitStore(counting);
    const sheet = { id: `lost-claim-${Date.now()}`, access: "public" as const, refreshTokenCiphertext: null };
    // Another instance claimed this interval's check and has not answered yet.
    await inner.putIfAbsent(driveClaimKey(sheet.id), {}, 60);
    const epoch = await changeEpoch(sheet);
    for (let i = 0; i < 50; i++) expect(await changeEpoch(sheet)).toBe(epoch);
    expect(looks).toBeLessThanOrEqual(2);
  });
});
