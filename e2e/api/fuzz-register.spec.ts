// POST /register under hostile input, through a real signed-in session (fast-check, fixed seed):
// never a 5xx, always the envelope, and only Google Sheets references are ever accepted.
import fc from "fast-check";
import { expect, test } from "@playwright/test";
import { signIn } from "../support/google-consent";

test("POST /register: random bodies and content types give the envelope, never a 5xx", async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page, "fuzz-register@example.com");
  const sheetUrl = fc.oneof(
    fc.string({ unit: "grapheme", maxLength: 60 }),
    fc.webUrl(),
    fc.constantFrom(
      "http://127.0.0.1:6379/",
      "file:///etc/passwd",
      "https://docs.google.com/spreadsheets/d/../../x",
      "https://docs.google.com.evil.example/spreadsheets/d/1abc",
      "javascript:alert(1)",
      "1".repeat(500),
    ),
    fc.jsonValue({ maxDepth: 3 }),
  );
  const body = fc.oneof(
    sheetUrl.map((u) => JSON.stringify({ sheet_url: u })),
    fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v) ?? "null"),
    fc.string({ maxLength: 50 }),
  );
  const type = fc.constantFrom("application/json", "text/plain", "");
  await fc.assert(
    fc.asyncProperty(body, type, async (data, contentType) => {
      const res = await page.request.post("/register", {
        data,
        headers: contentType ? { "Content-Type": contentType } : {},
      });
      expect(res.status(), data).toBeLessThan(500);
      const json = await res.json();
      expect(typeof json.success).toBe("boolean");
      if (res.status() >= 400) expect(typeof json.message).toBe("string");
      // Nothing but a Google Sheets reference registers (none of these names a sheet Google knows).
      expect([200, 201]).not.toContain(res.status());
    }),
    { seed: 20261122, numRuns: 60 },
  );
});
