// What Google's answer about a registrant means for the registration, and when it is asked again.
import { describe, expect, it } from "vitest";
import { accessCheckDue, accessStateOf } from "./access-check";
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
    for (const accessState of ["current", "service", undefined] as const) expect(() => requireRegistrantCanEdit({ accessState })).not.toThrow();
    expect(writesAllowed({ writable: true, accessState: "read_only" })).toBe(false);
    expect(writesAllowed({ writable: true, accessState: "service" })).toBe(true);
    expect(writesAllowed({ writable: false, accessState: "current" })).toBe(false);
  });
});
