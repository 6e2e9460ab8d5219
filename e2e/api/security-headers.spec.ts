// Pages and API answers carry the security headers; pages a CSP that allows this origin only
// and no framing.
import { expect, test } from "@playwright/test";

test("pages and API answers carry the security headers", async ({ request }) => {
  for (const path of ["/", "/docs", "/signin", "/api", "/health"]) {
    const res = await request.get(path);
    const h = res.headers();
    expect(h["x-content-type-options"], path).toBe("nosniff");
    expect(h["x-frame-options"], path).toBe("DENY");
    expect(h["referrer-policy"], path).toBe("strict-origin-when-cross-origin");
    expect(h["content-security-policy"], path).toContain("frame-ancestors 'none'");
    expect(h["content-security-policy"], path).toContain("default-src 'self'");
    expect(h["x-powered-by"], path).toBeUndefined();
  }
});
