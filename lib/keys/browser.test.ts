// Origins of browser keys: normalised on the way in, matched exactly (or by a subdomain wildcard).
import { describe, expect, it } from "vitest";
import { browserKeySettings, normalizeOrigin, originAllowed } from "./browser";

describe("browser key origins", () => {
  it("normalises origins and refuses anything that is not scheme://host[:port]", () => {
    expect(normalizeOrigin(" https://Shop.Example.com/ ")).toBe("https://shop.example.com");
    expect(normalizeOrigin("https://a.example.com:443")).toBe("https://a.example.com");
    expect(normalizeOrigin("http://localhost:3000")).toBe("http://localhost:3000");
    expect(normalizeOrigin("https://*.Example.com")).toBe("https://*.example.com");
    expect(normalizeOrigin("https://bücher.de")).toBe("https://xn--bcher-kva.de");
    for (const bad of [
      "https://a.com/path",
      "https://a.com?x=1",
      "ftp://a.com",
      "null",
      "a.com",
      "https://u:p@a.com",
      "https://*.com",
      "https://*.10.0.0.1",
      "https://a.*.com",
      "*",
    ]) {
      expect(() => normalizeOrigin(bad), bad).toThrow();
    }
  });

  it("matches the exact origin, or any subdomain of a wildcard with the same scheme and port", () => {
    const allowed = ["https://*.example.com", "http://localhost:3000"];
    for (const yes of ["https://a.example.com", "https://a.b.example.com", "http://localhost:3000"])
      expect(originAllowed(allowed, yes), yes).toBe(true);
    for (const no of [
      "https://example.com",
      "http://a.example.com",
      "https://a.example.com:8443",
      "https://evilexample.com",
      "https://example.com.evil.net",
      "http://localhost:3001",
      "null",
      null,
    ]) {
      expect(originAllowed(allowed, no), String(no)).toBe(false);
    }
  });

  it("needs an origin, drops duplicates and blank names, and defaults the visitor limit", () => {
    expect(
      browserKeySettings({ origins: ["https://a.com", "https://A.com/"], tabs: [" Items ", "", "Items"], columns: [] }),
    ).toEqual({ origins: ["https://a.com"], tabs: ["Items"], columns: null, visitorLimit: 60 });
    expect(() => browserKeySettings({ origins: [" "] })).toThrow(/at least one allowed origin/);
    expect(() => browserKeySettings({ origins: ["https://a.com"], visitorLimit: 1.5 })).toThrow(/per-visitor limit/);
  });
});
