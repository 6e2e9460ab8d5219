// The change epoch's rule: a new modifiedTime starts a new epoch unless writes through the
// service explain it; Drive's silence or failure changes nothing.
import { describe, expect, it } from "vitest";
import { noteAnswer, type Watch } from "./change-check";

const watch = (over: Partial<Watch> = {}): Watch => ({ modifiedTime: "t0", writes: 3, epoch: 7, checkedAt: 0, ownWriteAt: -Infinity, ownWrites: 0, ...over });

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

  it("takes a change as explained when another instance wrote, or it is no later than this instance's last write", () => {
    const byCount = watch();
    noteAnswer(byCount, "t1", 4, 10);
    expect([byCount.epoch, byCount.writes]).toEqual([7, 4]);
    const wroteAt = Date.parse("2026-01-01T10:00:00.500Z");
    const byOwnWrite = watch({ modifiedTime: "2026-01-01T09:00:00.000Z", ownWriteAt: wroteAt, ownWrites: 1 });
    noteAnswer(byOwnWrite, "2026-01-01T10:00:00.400Z", 4, 10); // the write itself, as Drive dates it
    expect([byOwnWrite.epoch, byOwnWrite.ownWrites]).toEqual([7, 0]);
  });

  it("does not take an edit made after this instance's own write for the write, though the write count moved", () => {
    const wroteAt = Date.parse("2026-01-01T10:00:00.500Z");
    const w = watch({ modifiedTime: "2026-01-01T09:00:00.000Z", ownWriteAt: wroteAt, ownWrites: 1 });
    noteAnswer(w, "2026-01-01T10:00:01.000Z", 4, 10); // an edit in the Sheets UI after the write
    expect(w.epoch).not.toBe(7);
    const afterEdit = w.epoch;
    // This instance's own write moves the count too, but is no other instance's: not explained.
    w.ownWrites = 1;
    noteAnswer(w, "2026-01-01T10:00:02.000Z", 5, 20);
    expect(w.epoch).not.toBe(afterEdit);
    // Another instance's write, counted beside this one's, explains the next change.
    const afterOwn = w.epoch;
    w.ownWrites = 1;
    noteAnswer(w, "2026-01-01T10:00:03.000Z", 7, 30);
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
