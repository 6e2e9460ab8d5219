import { describe, expect, it } from "vitest";
import { safeReturn, withFragment } from "./return-to";

const app = "http://localhost:3000";

describe("safeReturn", () => {
  it.each([
    "/\\evil.example",
    "/\\/evil.example",
    "\\\\evil.example",
    "//evil.example",
    "///evil.example",
    "https://evil.example/dashboard",
    "http://localhost:3001/dashboard",
    "javascript:alert(1)",
    "/%5Cevil.example".replace("%5C", "\\"),
    "\t//evil.example",
  ])("keeps %s on the site", (target) => {
    const out = safeReturn(target, app);
    expect(new URL(out, app).origin).toBe(app);
    expect(out).toMatch(/^\/(?![/\\])/);
  });

  it("returns pages of the site as they were asked for", () => {
    expect(safeReturn("/dashboard/sheets/abc?tab=Products#keys", app)).toBe("/dashboard/sheets/abc?tab=Products#keys");
    expect(safeReturn(`${app}/dashboard/usage`, app)).toBe("/dashboard/usage");
    expect(safeReturn("/.//evil.example", app)).toBe("/evil.example");
    expect(safeReturn(undefined, app)).toBe("/dashboard");
    expect(safeReturn("", app)).toBe("/dashboard");
    expect(safeReturn("/signin?callbackUrl=/signin", app)).toBe("/dashboard");
    expect(safeReturn("/signin/", app)).toBe("/dashboard");
  });

  it("adds back the fragment the browser kept through sign-in, when it is an element id", () => {
    expect(withFragment("/dashboard/sheets/abc", "#try-it")).toBe("/dashboard/sheets/abc#try-it");
    expect(withFragment("/dashboard/usage?x=1", "#plan")).toBe("/dashboard/usage?x=1#plan");
    expect(withFragment("/dashboard/sheets/abc#keys", "#try-it")).toBe("/dashboard/sheets/abc#keys");
    for (const bad of ["", "#", "try-it", "#a b", "#<script>", "#//evil.example", `#${"a".repeat(101)}`]) {
      expect(withFragment("/dashboard", bad)).toBe("/dashboard");
    }
  });
});
