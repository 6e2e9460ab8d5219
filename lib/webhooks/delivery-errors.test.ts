import { describe, expect, it } from "vitest";
import { answerErrorText, deliveryErrorText } from "./delivery-errors";

describe("deliveryErrorText", () => {
  it("says what a network error means, keeping the system's message", () => {
    const refused = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:9"), { code: "ECONNREFUSED" });
    expect(deliveryErrorText(refused)).toBe(
      "Connection refused: nothing is listening at that address and port (connect ECONNREFUSED 127.0.0.1:9).",
    );
  });

  it("keeps other messages as they are, cut to 500 characters", () => {
    expect(deliveryErrorText(new Error("socket hang up"))).toBe("socket hang up");
    expect(deliveryErrorText(new Error("x".repeat(600)))).toHaveLength(500);
  });
});

describe("answerErrorText", () => {
  it("names the status, and for a redirect where it pointed and that it is not followed", () => {
    expect(answerErrorText(503)).toBe("HTTP 503");
    expect(answerErrorText(301, "https://example.com/new")).toBe(
      "HTTP 301: a redirect to https://example.com/new, which is not followed; set the endpoint's URL to the address that receives.",
    );
  });
});
