// The limiter with a fake clock, on the in-process store and on Upstash over the real Redis:
// each window's reset instant, the sliding burst, the header choice, 429 bodies, refunds, and
// exactness under concurrency.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { consumeRequest, limitHeaders, rateLimitError, refundRequest } from "./limiter";
import type { Plan } from "@/lib/plans";
import { storesUnderTest } from "@/testing/stores";
import { setLimitStore } from "@/lib/store/store";

const { stores, start, stop } = await storesUnderTest();

beforeAll(start);
afterAll(stop);

const t = (iso: string) => Date.parse(iso);
const plan = (p: Partial<Plan>): Plan => ({
  label: "test",
  month: 1000,
  day: 1000,
  hour: 1000,
  burst: 1000,
  webhookEndpointsPerSheet: 1,
  ...p,
});

describe.each(stores)("limiter on the %s store", (_name, make) => {
  const account = () => ({
    userId: `acct-${randomUUID()}`,
    plan: "free_trial" as const,
    billingAnchor: new Date(t("2026-01-31T08:00:00Z")),
  });
  const hit = (a: ReturnType<typeof account>, now: number, p: Plan) => consumeRequest(a, randomUUID(), now, p);

  beforeAll(() => setLimitStore(make()));

  it("resets the hour exactly at the end of the UTC hour", async () => {
    const a = account();
    const p = plan({ hour: 2 });
    expect((await hit(a, t("2027-11-22T10:00:00Z"), p)).allowed).toBe(true);
    expect((await hit(a, t("2027-11-22T10:30:00Z"), p)).allowed).toBe(true);
    const refused = await hit(a, t("2027-11-22T10:59:59.999Z"), p);
    expect(refused).toMatchObject({
      allowed: false,
      shown: { name: "hour", used: 2, remaining: 0, reset: t("2027-11-22T11:00:00Z") },
    });
    expect((await hit(a, t("2027-11-22T11:00:00Z"), p)).allowed).toBe(true);
  });

  it("keeps a fifth of each window for secret keys: a browser key's requests stop at its share", async () => {
    const a = account();
    const p = plan({ burst: 5, hour: 10 });
    const t0 = t("2027-11-22T12:00:00Z");
    const visitor = { keyId: "key-browser", address: "203.0.113.7", limit: 1000 };
    const browser = (at: number) => consumeRequest(a, randomUUID(), at, p, visitor);
    for (let i = 0; i < 4; i++) expect((await browser(t0 + i)).allowed).toBe(true);
    const refused = await browser(t0 + 10);
    expect(refused).toMatchObject({ allowed: false, shown: { name: "burst", limit: 4, used: 4, remaining: 0 } });
    // The 429 says why the figure is not the plan's own.
    expect(rateLimitError(refused, t0 + 10).message).toMatch(
      /^Rate limit of 4 requests per minute \(burst\) reached; .* browser \(publishable\) keys may use 80% of each of the plan's windows/,
    );
    // The account's own windows, shared: the secret key still has the last unit of the burst.
    expect(await hit(a, t0 + 20, p)).toMatchObject({ allowed: true, shown: { name: "burst", limit: 5, remaining: 0 } });
    expect((await hit(a, t0 + 30, p)).allowed).toBe(false);
  });

  it("a 429 with several windows full names the one that frees last in its body and Retry-After; its X-RateLimit-* headers the shortest of the tied", async () => {
    const a = account();
    const p = plan({ burst: 2, hour: 2 });
    const t0 = t("2027-11-22T10:20:00Z");
    await hit(a, t0, p);
    await hit(a, t0 + 1000, p);
    const refused = await hit(a, t0 + 2000, p);
    expect(refused).toMatchObject({
      allowed: false,
      exceeded: { name: "hour", reset: t("2027-11-22T11:00:00Z") },
      shown: { name: "burst", remaining: 0 },
    });
    const error = rateLimitError(refused, t0 + 2000);
    expect(error.headers).toMatchObject({
      "Retry-After": String(40 * 60 - 2),
      "X-RateLimit-Limit": "2",
      "X-RateLimit-Remaining": "0",
      "X-RateLimit-Reset": String((t0 + 60_000) / 1000),
    });
    expect(error.extra).toMatchObject({
      retry_after: 40 * 60 - 2,
      limit: { allowed: 2, current: 2, reset_at: t("2027-11-22T11:00:00Z") / 1000 },
    });
  });

  it("a 429's message names the second the window frees as reset_at does, rounded up", async () => {
    const a = account();
    const p = plan({ burst: 1 });
    const t0 = t("2027-11-22T10:20:00.400Z");
    await hit(a, t0, p);
    const error = rateLimitError(await hit(a, t0 + 100, p), t0 + 100);
    expect(error.extra).toMatchObject({ limit: { reset_at: t("2027-11-22T10:21:01Z") / 1000 } });
    expect(error.message).toContain("(2027-11-22T10:21:01Z)");
  });

  it("resets the day at UTC midnight", async () => {
    const a = account();
    const p = plan({ day: 1 });
    await hit(a, t("2027-11-22T00:00:00Z"), p);
    expect((await hit(a, t("2027-11-22T23:59:59.999Z"), p)).shown).toMatchObject({
      name: "day",
      reset: t("2027-11-23T00:00:00Z"),
    });
    expect((await hit(a, t("2027-11-23T00:00:00Z"), p)).allowed).toBe(true);
  });

  it("resets the month at the end of the billing period, anchored at sign-up", async () => {
    const a = account(); // anchored on the 31st at 08:00: this period runs Oct 31 - Nov 30 08:00 (times lie ahead, so stores keep counters until then)
    const p = plan({ month: 1 });
    await hit(a, t("2027-11-10T00:00:00Z"), p);
    const refused = await hit(a, t("2027-11-30T07:59:59.999Z"), p);
    expect(refused.shown).toMatchObject({ name: "month", reset: t("2027-11-30T08:00:00Z") });
    expect(rateLimitError(refused, t("2027-11-30T07:59:59.999Z")).message).toMatch(
      /next billing period starts at 2027-11-30T08:00:00Z, or at once after a plan upgrade/,
    );
    expect((await hit(a, t("2027-11-30T08:00:00Z"), p)).allowed).toBe(true);
  });

  it("slides the burst window over the last 60 seconds", async () => {
    const a = account();
    const p = plan({ burst: 2 });
    const t0 = t("2027-11-22T12:00:00Z");
    await hit(a, t0, p);
    await hit(a, t0 + 30_000, p);
    const refused = await hit(a, t0 + 59_999, p);
    expect(refused).toMatchObject({ allowed: false, shown: { name: "burst", reset: t0 + 60_000 } });
    expect((await hit(a, t0 + 60_001, p)).allowed).toBe(true);
    expect((await hit(a, t0 + 60_002, p)).allowed).toBe(false);
  });

  it("describes the window with the least remaining, the shortest on a tie", async () => {
    const a = account();
    const now = t("2027-11-22T12:00:00Z");
    const tie = await hit(a, now, plan({ burst: 5, hour: 5 }));
    expect(tie.shown.name).toBe("burst");
    const b = account();
    const least = await hit(b, now, plan({ burst: 5, hour: 10, day: 3 }));
    expect(least.shown).toMatchObject({ name: "day", remaining: 2 });
    expect(limitHeaders(least, now)).toMatchObject({
      "X-RateLimit-Limit": "3",
      "X-RateLimit-Remaining": "2",
      "X-RateLimit-Reset": String(t("2027-11-23T00:00:00Z") / 1000),
    });
    expect(limitHeaders(least, now)["RateLimit-Policy"]).toMatch(/^5;w=60, 10;w=3600, 3;w=86400, 1000;w=\d+$/);
  });

  it("answers 429 with retry_after, limit and Retry-After for the full window", async () => {
    const a = account();
    const now = t("2027-11-22T12:00:10Z");
    await hit(a, now, plan({ hour: 1 }));
    const err = rateLimitError(await hit(a, now, plan({ hour: 1 })), now);
    expect([err.status, err.code]).toEqual([429, "rate_limit_exceeded"]);
    expect(err.extra).toEqual({
      retry_after: 3590,
      limit: { allowed: 1, current: 1, reset_at: t("2027-11-22T13:00:00Z") / 1000 },
    });
    expect(err.headers["Retry-After"]).toBe("3590");
  });

  it("gives a refunded request its unit back in every window", async () => {
    const a = account();
    const now = t("2027-11-22T12:00:00Z");
    const first = await hit(a, now, plan({ burst: 1, hour: 1 }));
    await refundRequest(first);
    expect((await hit(a, now + 1, plan({ burst: 1, hour: 1 }))).allowed).toBe(true);
  });

  it("gives back one unit, not all, when one of several requests of the same millisecond is refunded", async () => {
    const a = account();
    const now = t("2027-11-22T12:00:00Z");
    const p = plan({ burst: 3 });
    const [first] = [await hit(a, now, p), await hit(a, now, p), await hit(a, now, p)];
    await refundRequest(first!);
    expect((await hit(a, now, p)).allowed).toBe(true);
    expect((await hit(a, now, p)).allowed).toBe(false);
  });

  it("lets exactly the remaining requests through when many arrive at once", async () => {
    const a = account();
    const now = t("2027-11-22T12:00:00Z");
    const p = plan({ hour: 5 });
    const decisions = await Promise.all(Array.from({ length: 100 }, () => hit(a, now, p)));
    expect(decisions.filter((d) => d.allowed)).toHaveLength(5);
  });
});
