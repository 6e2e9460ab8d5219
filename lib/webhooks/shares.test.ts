// Fair shares: an endpoint and an account hold at most their share of slots; a stream over it
// waits, once, and is woken when a slot of its share frees.
import { describe, expect, it, vi } from "vitest";
import { PER_ACCOUNT, PER_ENDPOINT, shareState, takeShare } from "./shares";

const woken = vi.hoisted(() => [] as { endpointId: string; stream: string }[]);
vi.mock("./queue", () => ({
  queueOpen: () => true,
  wakeStreams: async (refs: typeof woken) => void woken.push(...refs),
}));

describe("delivery shares", () => {
  it("caps an endpoint, wakes its oldest waiting stream when a slot frees, and lists a stream once", () => {
    const held = Array.from(
      { length: PER_ENDPOINT },
      (_, i) => takeShare("acct-1", { endpointId: "ep-1", stream: `row ${i}` })!,
    );
    expect(held.every(Boolean)).toBe(true);
    expect(takeShare("acct-1", { endpointId: "ep-1", stream: "row 9" })).toBeUndefined();
    expect(takeShare("acct-1", { endpointId: "ep-1", stream: "row 9" })).toBeUndefined();
    expect(takeShare("acct-1", { endpointId: "ep-1", stream: "row 10" })).toBeUndefined();
    expect(shareState("endpoint ep-1")).toEqual({ held: PER_ENDPOINT, waiting: 2 });
    // The account's other endpoint is not held up by this one.
    const other = takeShare("acct-1", { endpointId: "ep-2", stream: "row 1" });
    expect(other).toBeDefined();
    held[0]!();
    held[0]!();
    expect(woken).toEqual([{ endpointId: "ep-1", stream: "row 9" }]);
    expect(shareState("endpoint ep-1")).toEqual({ held: PER_ENDPOINT - 1, waiting: 1 });
    for (const release of [...held.slice(1), other!]) release();
    expect(shareState("account acct-1")).toEqual({ held: 0, waiting: 0 });
  });

  it("caps an account across its endpoints", () => {
    const held = Array.from({ length: PER_ACCOUNT }, (_, i) =>
      takeShare("acct-2", { endpointId: `ep-${i}`, stream: "row 1" }),
    );
    expect(held.every(Boolean)).toBe(true);
    expect(takeShare("acct-2", { endpointId: "ep-new", stream: "row 1" })).toBeUndefined();
    expect(takeShare("acct-3", { endpointId: "ep-new-3", stream: "row 1" })).toBeDefined();
    expect(shareState("account acct-2")).toEqual({ held: PER_ACCOUNT, waiting: 1 });
  });
});
