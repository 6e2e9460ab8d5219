import { describe, expect, it } from "vitest";
import { PLANS } from "@/lib/plans";
import { addMonths, billingPeriod, limitWindows } from "./windows";

const t = (iso: string) => Date.parse(iso);

describe("limit windows", () => {
  it("end hours and days on UTC boundaries", () => {
    const [, hour, day] = limitWindows(
      PLANS.starter,
      new Date(t("2026-01-15T10:00:00Z")),
      t("2026-11-22T23:59:59.999Z"),
    );
    expect(new Date(hour!.end).toISOString()).toBe("2026-11-23T00:00:00.000Z");
    expect(new Date(day!.end).toISOString()).toBe("2026-11-23T00:00:00.000Z");
    const [, nextHour, nextDay] = limitWindows(
      PLANS.starter,
      new Date(t("2026-01-15T10:00:00Z")),
      t("2026-11-23T00:00:00Z"),
    );
    expect(new Date(nextHour!.start).toISOString()).toBe("2026-11-23T00:00:00.000Z");
    expect(new Date(nextDay!.end).toISOString()).toBe("2026-11-24T00:00:00.000Z");
  });

  it("repeat the billing period monthly from sign-up, to the millisecond", () => {
    const anchor = new Date(t("2026-01-15T10:30:00Z"));
    expect(billingPeriod(anchor, t("2026-03-15T10:29:59.999Z"))).toEqual({
      start: t("2026-02-15T10:30:00Z"),
      end: t("2026-03-15T10:30:00Z"),
    });
    expect(billingPeriod(anchor, t("2026-03-15T10:30:00Z"))).toEqual({
      start: t("2026-03-15T10:30:00Z"),
      end: t("2026-04-15T10:30:00Z"),
    });
    expect(billingPeriod(anchor, t("2026-01-15T10:30:00Z")).start).toBe(t("2026-01-15T10:30:00Z"));
  });

  it("end a period anchored on the 31st on the last day of shorter months", () => {
    const anchor = new Date(t("2026-01-31T00:00:00Z"));
    expect(addMonths(anchor, 1).toISOString()).toBe("2026-02-28T00:00:00.000Z");
    expect(billingPeriod(anchor, t("2026-03-05T00:00:00Z"))).toEqual({
      start: t("2026-02-28T00:00:00Z"),
      end: t("2026-03-31T00:00:00Z"),
    });
  });

  it("give the right period for one anchor asked about months in any order (the last answer is kept)", () => {
    const anchor = new Date("2026-01-31T10:00:00.000Z");
    const at = (iso: string) => billingPeriod(anchor, Date.parse(iso));
    const iso = (p: { start: number; end: number }) => [new Date(p.start).toISOString(), new Date(p.end).toISOString()];
    expect(iso(at("2026-03-01T00:00:00Z"))).toEqual(["2026-02-28T10:00:00.000Z", "2026-03-31T10:00:00.000Z"]);
    expect(iso(at("2026-03-31T09:59:59.999Z"))).toEqual(["2026-02-28T10:00:00.000Z", "2026-03-31T10:00:00.000Z"]);
    expect(iso(at("2026-03-31T10:00:00.000Z"))).toEqual(["2026-03-31T10:00:00.000Z", "2026-04-30T10:00:00.000Z"]);
    expect(iso(at("2026-02-01T00:00:00Z"))).toEqual(["2026-01-31T10:00:00.000Z", "2026-02-28T10:00:00.000Z"]);
    expect(iso(at("2025-12-01T00:00:00Z"))).toEqual(["2026-01-31T10:00:00.000Z", "2026-02-28T10:00:00.000Z"]);
  });

  it("slide the burst window over the last 60 seconds", () => {
    const [burst] = limitWindows(PLANS.free_trial, new Date(0), 1_000_000);
    expect(burst).toMatchObject({ name: "burst", limit: 5, start: 940_000 });
  });
});

describe("billing periods on whole seconds", () => {
  it("turns on the anchor's second, so ISO times and Unix seconds name the same moment", () => {
    const anchor = new Date("2026-10-25T15:18:23.456Z");
    const period = billingPeriod(anchor, Date.parse("2026-11-25T16:00:00Z"));
    expect([new Date(period.start).toISOString(), new Date(period.end).toISOString()]).toEqual([
      "2026-11-25T15:18:23.000Z",
      "2026-12-25T15:18:23.000Z",
    ]);
    expect(billingPeriod(anchor, Date.parse("2026-10-25T15:18:23.200Z")).start).toBe(
      Date.parse("2026-10-25T15:18:23.000Z"),
    );
  });
});
