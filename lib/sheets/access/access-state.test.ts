// What Google's answer about a registrant means for the registration, and when it is asked again.
import { describe, expect, it } from "vitest";
import { accessAnswerOf, accessCheckDue, accessStateOf, unprovenUntil } from "./access-check";
import { requireRegistrantCanEdit, requireRegistrantCanOpen, writesAllowed } from "./access-lapse";

describe("accessStateOf", () => {
  it.each([
    ["edit", "edit", "current"],
    ["view", "edit", "read_only"],
    [undefined, "edit", "suspended"],
    ["view", "view", "current"],
    ["edit", "view", "current"], // registered read-only: it becomes writable only when registered again
    [undefined, "view", "suspended"],
  ] as const)("Google says %s of a registration with %s proof: %s", (level, proof, state) => {
    expect(accessStateOf(level, proof)).toBe(state);
  });
});

describe("accessCheckDue (ACCESS_RECHECK_INTERVAL_MS, 5 minutes by default)", () => {
  const now = 1_800_000_000_000;
  it("is due an interval after the last check, or when a record has no check time", () => {
    expect(accessCheckDue({ accessState: "current", accessCheckedAt: now - 299_999 }, now)).toBe(false);
    expect(accessCheckDue({ accessState: "current", accessCheckedAt: now - 300_000 }, now)).toBe(true);
    expect(accessCheckDue({ accessState: "suspended", accessCheckedAt: now - 300_000 }, now)).toBe(true);
    expect(accessCheckDue({}, now)).toBe(true);
  });
  it("never for the service's own sheet (demo mode): no person proved access to it", () => {
    expect(accessCheckDue({ accessState: "service", accessCheckedAt: 0 }, now)).toBe(false);
  });
});

describe("what a lapse refuses", () => {
  it("suspended: everything, saying why; read-only: writes only", () => {
    expect(() => requireRegistrantCanOpen({ accessState: "suspended" })).toThrow(/can no longer open it/);
    expect(() => requireRegistrantCanEdit({ accessState: "suspended" })).toThrow(/can no longer open it/);
    expect(() => requireRegistrantCanOpen({ accessState: "read_only" })).not.toThrow();
    expect(() => requireRegistrantCanEdit({ accessState: "read_only" })).toThrow(/can no longer edit it/);
    for (const accessState of ["current", "service", undefined] as const)
      expect(() => requireRegistrantCanEdit({ accessState })).not.toThrow();
    expect(writesAllowed({ writable: true, accessState: "read_only" })).toBe(false);
    expect(writesAllowed({ writable: true, accessState: "service" })).toBe(true);
    expect(writesAllowed({ writable: false, accessState: "current" })).toBe(false);
  });
});

describe("accessAnswerOf: a registration made before proof existed (ACCESS_PROOF_GRACE_MS, 14 days by default)", () => {
  const day = 24 * 60 * 60 * 1000;
  const now = new Date(1_800_000_000_000);
  const legacy = { proof: "none" as const, writable: true, accessUnprovenSince: null };
  it("unproven at its first check, the grace counted from it; suspended once the grace is over", () => {
    expect(accessAnswerOf(undefined, legacy, now)).toEqual({ state: "unproven", unprovenSince: now });
    const since = new Date(now.getTime() - 13 * day);
    expect(accessAnswerOf(undefined, { ...legacy, accessUnprovenSince: since }, now)).toEqual({
      state: "unproven",
      unprovenSince: since,
    });
    const over = new Date(now.getTime() - 14 * day);
    expect(accessAnswerOf(undefined, { ...legacy, accessUnprovenSince: over }, now)).toEqual({
      state: "suspended",
      unprovenSince: over,
    });
    expect(unprovenUntil({ accessState: "unproven", accessUnprovenSince: since })).toEqual(
      new Date(since.getTime() + 14 * day),
    );
    expect(unprovenUntil({ accessState: "current", accessUnprovenSince: null })).toBeUndefined();
  });
  it("proven: the proof its registration claims (writable: edit), the grace cleared", () => {
    expect(accessAnswerOf("edit", legacy, now)).toEqual({ state: "current", proof: "edit", unprovenSince: null });
    expect(accessAnswerOf("view", legacy, now)).toEqual({ state: "read_only", proof: "edit", unprovenSince: null });
    expect(accessAnswerOf("view", { ...legacy, writable: false }, now)).toEqual({
      state: "current",
      proof: "view",
      unprovenSince: null,
    });
  });
  it("a registration with proof gets no grace", () => {
    expect(accessAnswerOf(undefined, { proof: "view", writable: false, accessUnprovenSince: null }, now)).toEqual({
      state: "suspended",
    });
  });
});
