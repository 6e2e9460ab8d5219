import { describe, expect, it } from "vitest";
import { deliveryErrorText } from "./delivery-errors";

describe("deliveryErrorText", () => {
  it("says what a network error means, keeping the system's message", () => {
    const refused = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:9"), { code: "ECONNREFUSED" });
    expect(deliveryErrorText(refused)).toBe("Connection refused: nothing is listening at that address and port (connect ECONNREFUSED 127.0.0.1:9).");
  });

  it("keeps other messages as they are, cut to 500 characters", () => {
    expect(deliveryErrorText(new Error("more than 3 redirects"))).toBe("more than 3 redirects");
    expect(deliveryErrorText(new Error("x".repeat(600)))).toHaveLength(500);
  });
});
