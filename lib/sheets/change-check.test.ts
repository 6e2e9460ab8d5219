// The change epoch's rule: a new modifiedTime starts a new epoch unless writes through the
// service explain it; Drive's silence or failure changes nothing.
import { describe, expect, it } from "vitest";
import { noteAnswer, type Watch } from "./change-check";

const watch = (over: Partial<Watch> = {}): Watch => ({ modifiedTime: "t0", writes: 3, epoch: 7, checkedAt: 0, ownWrite: false, askAgain: false, ...over });

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

  it("takes a change as explained when the sheet's write count moved, or this instance wrote", () => {
    const byCount = watch();
    noteAnswer(byCount, "t1", 4, 10);
    expect([byCount.epoch, byCount.writes]).toEqual([7, 4]);
    const byOwnWrite = watch({ ownWrite: true });
    noteAnswer(byOwnWrite, "t1", undefined, 10);
    expect([byOwnWrite.epoch, byOwnWrite.ownWrite]).toEqual([7, false]);
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
