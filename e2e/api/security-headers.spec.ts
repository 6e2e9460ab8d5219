// Pages and API answers carry the security headers; pages a CSP that allows this origin only
// and no framing, the API (JSON and CSV, never a document to render) one that allows nothing.
import { expect, test } from "@playwright/test";

test("pages and API answers carry the security headers", async ({ request }) => {
  for (const path of ["/", "/docs", "/signin", "/api", "/api/v1/nope/Tab", "/health"]) {
    const res = await request.get(path);
    const h = res.headers();
    expect(h["x-content-type-options"], path).toBe("nosniff");
    expect(h["x-frame-options"], path).toBe("DENY");
    expect(h["referrer-policy"], path).toBe("strict-origin-when-cross-origin");
    expect(h["content-security-policy"], path).toContain("frame-ancestors 'none'");
    expect(h["content-security-policy"], path).toContain(
      path.startsWith("/api") ? "default-src 'none'" : "default-src 'self'",
    );
    expect(h["x-powered-by"], path).toBeUndefined();
  }
});
