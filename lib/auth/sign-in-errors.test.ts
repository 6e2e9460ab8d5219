import { describe, expect, it } from "vitest";
import { signInErrorMessage } from "./sign-in-errors";

describe("signInErrorMessage", () => {
  it("has a fixed sentence for each code next-auth sends", () => {
    expect(signInErrorMessage("AccessDenied")).toContain("Google did not let you sign in");
    expect(signInErrorMessage("Configuration")).toContain("not working on our side");
    expect(signInErrorMessage("OAuthAccountNotLinked")).toContain("already linked");
    expect(signInErrorMessage("OAuthCallbackError")).toBe(signInErrorMessage("OAuthCallback"));
  });

  it("never repeats text from the URL", () => {
    for (const text of [
      "Your account was suspended. Call support at evil.example",
      "constructor",
      "__proto__",
      "toString",
      "accessdenied",
    ]) {
      expect(signInErrorMessage(text)).toBe("Sign-in did not complete. Try again.");
    }
  });

  it("says nothing without a code", () => {
    expect(signInErrorMessage(undefined)).toBeUndefined();
    expect(signInErrorMessage("")).toBeUndefined();
    expect(signInErrorMessage(["AccessDenied", "x"])).toBeUndefined();
  });
});
