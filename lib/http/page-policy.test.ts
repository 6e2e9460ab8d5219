import { describe, expect, it } from "vitest";
import { newNonce, pagePolicy } from "./page-policy";

const scriptSrc = (policy: string) => policy.split("; ").find((d) => d.startsWith("script-src "))!;

describe("the pages' Content-Security-Policy", () => {
  it("with a nonce, runs only scripts carrying it and what they load: no inline script otherwise", () => {
    const policy = pagePolicy({ nonce: "abc123==", env: { NODE_ENV: "production", GOOGLE_CLIENT_ID: "id" } });
    expect(scriptSrc(policy)).toBe(
      "script-src 'self' 'nonce-abc123==' 'strict-dynamic' https://apis.google.com https://docs.google.com",
    );
    expect(policy).toContain("frame-ancestors 'none'");
    expect(policy).toContain("object-src 'none'");
  });

  it("without one (answers the proxy does not render), allows inline scripts as Next.js needs", () => {
    expect(scriptSrc(pagePolicy({ env: { NODE_ENV: "production", GOOGLE_CLIENT_ID: "id" } }))).toBe(
      "script-src 'self' 'unsafe-inline' https://apis.google.com https://docs.google.com",
    );
  });

  it("lets the emulated Picker load from loopback, and next dev evaluate code", () => {
    const policy = pagePolicy({ nonce: "n", env: { NODE_ENV: "development" } });
    expect(scriptSrc(policy)).toContain("'unsafe-eval'");
    expect(scriptSrc(policy)).toContain("http://127.0.0.1:*");
    expect(policy).toContain(
      "frame-src 'self' https://apis.google.com https://docs.google.com http://127.0.0.1:* http://localhost:*",
    );
  });

  it("makes a new 128-bit nonce each time", () => {
    const [a, b] = [newNonce(), newNonce()];
    expect(a).toMatch(/^[A-Za-z0-9+/]{22}==$/);
    expect(a).not.toBe(b);
  });
});
