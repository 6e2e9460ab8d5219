import { describe, expect, it } from "vitest";
import { TRANSIENT, withRetries } from "./retry";

const unavailable = () =>
  Object.assign(new Error("unavailable"), {
    response: {
      status: 503,
      data: { error: { code: 503, status: "UNAVAILABLE", message: "The service is currently unavailable." } },
    },
  });

describe("withRetries", () => {
  it("stops after four calls of a lasting outage, however much of the budget is left", async () => {
    let calls = 0;
    const failing = withRetries(
      async () => {
        calls++;
        throw unavailable();
      },
      { retryable: TRANSIENT, budgetMs: 60_000, baseDelayMs: 1, maxDelayMs: 2 },
    );
    await expect(failing).rejects.toThrow("unavailable");
    expect(calls).toBe(4);
  });

  it("answers once a retry succeeds", async () => {
    let calls = 0;
    const result = await withRetries(
      async () => {
        if (++calls < 3) throw unavailable();
        return "ok";
      },
      { retryable: TRANSIENT, budgetMs: 60_000, baseDelayMs: 1, maxDelayMs: 2 },
    );
    expect([result, calls]).toEqual(["ok", 3]);
  });
});
