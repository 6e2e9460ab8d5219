import { describe, expect, it } from "vitest";
import type { FormScope } from "@/lib/keys/key-record";
import { backLink, checkFormOrigin, claimedOrigin, redirectTarget } from "./form-origin";

const scope: FormScope = {
  tab: "T",
  origins: ["https://club.example.com", "https://*.example.org"],
  redirects: ["https://club.example.com/thanks"],
  unknownFields: "drop",
  visitorLimit: 10,
};
const h = (init: Record<string, string>) => new Headers(init);

describe("form origins and redirects", () => {
  it("takes Origin, else Referer's origin; Origin: null (no-referrer pages) says nothing", () => {
    expect(claimedOrigin(h({ origin: "https://a.example" }))).toBe("https://a.example");
    expect(claimedOrigin(h({ referer: "https://b.example/form?x=1" }))).toBe("https://b.example");
    expect(claimedOrigin(h({ origin: "null" }))).toBeNull();
    expect(claimedOrigin(h({}))).toBeNull();
  });

  it("serves listed origins only", () => {
    expect(checkFormOrigin(scope, h({ origin: "https://club.example.com" }))).toBe("https://club.example.com");
    expect(checkFormOrigin(scope, h({ origin: "https://www.example.org" }))).toBe("https://www.example.org");
    expect(() => checkFormOrigin(scope, h({ origin: "https://club.example.com.evil.net" }))).toThrow(/did not list/);
    expect(() => checkFormOrigin(scope, h({ origin: "null" }))).toThrow(/no Origin or Referer/);
  });

  it("follows a listed _redirect only; refuses others; defaults to the first address", () => {
    expect(redirectTarget(scope, undefined)).toBe("https://club.example.com/thanks");
    expect(redirectTarget(scope, "https://club.example.com/thanks#top")).toBe("https://club.example.com/thanks");
    expect(() => redirectTarget(scope, "https://evil.example.net/")).toThrow(/not one of this form's/);
    expect(() => redirectTarget(scope, "//evil.example.net")).toThrow(/not one of this form's/);
    expect(redirectTarget({ ...scope, redirects: [] }, "")).toBeUndefined();
  });

  it("links back only to a page of a listed origin", () => {
    expect(backLink(scope, h({ referer: "https://club.example.com/join" }))).toBe("https://club.example.com/join");
    expect(backLink(scope, h({ referer: "https://evil.example.net/" }))).toBeUndefined();
    expect(backLink(scope, h({ referer: "javascript:alert(1)" }))).toBeUndefined();
  });
});
