import { describe, expect, it } from "vitest";
import { foreignNavigation, foreignPost, originMatchesHost, ownOriginOf, sameOrigin } from "./same-origin";

const own = "http://localhost:4510";
const headers = (h: Record<string, string>) => new Headers(h);

describe("sameOrigin", () => {
  it("needs the same scheme, host and port", () => {
    expect(sameOrigin("http://localhost:4510", own)).toBe(true);
    expect(sameOrigin("http://127.0.0.1:4510", own)).toBe(true);
    expect(sameOrigin("http://[::1]:4510", own)).toBe(true);
    expect(sameOrigin("https://api.example.com", "https://api.example.com")).toBe(true);
    expect(sameOrigin("https://api.example.com:443", "https://api.example.com")).toBe(true);
    for (const other of [
      "https://localhost:4510",
      "http://localhost:4511",
      "http://localhost",
      "http://localhost:4510.evil.com",
      "http://evil.example",
      "null",
      "",
      "file:///x",
      "ws://localhost:4510",
    ]) {
      expect(sameOrigin(other, own), other).toBe(false);
    }
    expect(sameOrigin("http://api.example.com", "https://api.example.com")).toBe(false);
    expect(sameOrigin("https://www.example.com", "https://example.com")).toBe(false);
  });
});

describe("ownOriginOf", () => {
  it("is APP_URL's origin when set, whatever the request says", () => {
    expect(
      ownOriginOf(headers({ host: "evil.example" }), "http://evil.example/dashboard", "https://api.example.com/"),
    ).toBe("https://api.example.com");
  });

  it("is the request's own origin when APP_URL is unset", () => {
    expect(ownOriginOf(headers({ host: "localhost:3000" }), "http://localhost:3000/dashboard", undefined)).toBe(
      "http://localhost:3000",
    );
    expect(
      ownOriginOf(
        headers({ host: "internal:3000", "x-forwarded-host": "app.example.com", "x-forwarded-proto": "https" }),
        "http://internal:3000/x",
        undefined,
      ),
    ).toBe("https://app.example.com");
  });
});

describe("foreignPost", () => {
  it("refuses another Origin, and no Origin when Sec-Fetch-Site says another site", () => {
    expect(foreignPost(headers({ origin: "https://evil.example" }), own)).toBe(true);
    expect(foreignPost(headers({ origin: "https://localhost:4510" }), own)).toBe(true);
    expect(foreignPost(headers({ origin: "null" }), own)).toBe(true);
    expect(foreignPost(headers({ "sec-fetch-site": "cross-site" }), own)).toBe(true);
    expect(foreignPost(headers({ "sec-fetch-site": "same-site" }), own)).toBe(true);
  });

  it("lets our own pages and clients without a page through", () => {
    expect(foreignPost(headers({ origin: own, "sec-fetch-site": "same-origin" }), own)).toBe(false);
    expect(foreignPost(headers({ "sec-fetch-site": "same-origin" }), own)).toBe(false);
    expect(foreignPost(headers({ "sec-fetch-site": "none" }), own)).toBe(false);
    expect(foreignPost(headers({}), own)).toBe(false);
  });
});

describe("originMatchesHost", () => {
  it("is what Next.js checks: the Origin's host against the first X-Forwarded-Host, or Host", () => {
    expect(originMatchesHost(headers({ origin: own, host: "localhost:4510" }))).toBe(true);
    expect(
      originMatchesHost(
        headers({
          origin: "https://app.example.com",
          host: "internal:3000",
          "x-forwarded-host": "app.example.com, cdn.example.net",
        }),
      ),
    ).toBe(true);
    expect(originMatchesHost(headers({ host: "localhost:4510" }))).toBe(true);
    expect(originMatchesHost(headers({ origin: "http://127.0.0.1:4510", host: "localhost:4510" }))).toBe(false);
    expect(originMatchesHost(headers({ origin: "null", host: "localhost:4510" }))).toBe(false);
  });
});

describe("foreignNavigation", () => {
  it("is a link, script or redirect from another site", () => {
    expect(foreignNavigation(headers({ "sec-fetch-site": "cross-site" }), own)).toBe(true);
    expect(foreignNavigation(headers({ "sec-fetch-site": "same-site" }), own)).toBe(true);
    expect(foreignNavigation(headers({ referer: "https://evil.example/page" }), own)).toBe(true);
    expect(foreignNavigation(headers({ "sec-fetch-site": "same-origin", referer: "https://evil.example/" }), own)).toBe(
      true,
    );
    expect(foreignNavigation(headers({ origin: "https://evil.example" }), own)).toBe(true);
  });

  it("is not one of our pages, the address bar or a client without a page", () => {
    expect(
      foreignNavigation(headers({ "sec-fetch-site": "same-origin", referer: `${own}/dashboard/sheets/x` }), own),
    ).toBe(false);
    expect(foreignNavigation(headers({ "sec-fetch-site": "none" }), own)).toBe(false);
    expect(foreignNavigation(headers({}), own)).toBe(false);
  });
});
