// Links from pages anyone may open into dashboard sections (`#try-it`, `#plan`) are plain anchors:
// a visitor not signed in is redirected to sign-in, and only a full navigation's 307 keeps the
// fragment for the sign-in page to send along; a client-side <Link> navigation drops it there.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";

const root = import.meta.dirname;

it("public pages link to dashboard sections with <a>, not <Link>", () => {
  const files = readdirSync(root, { recursive: true, encoding: "utf8" }).filter(
    (f) => f.endsWith(".tsx") && !f.startsWith("(dashboard)"),
  );
  const found: string[] = [];
  for (const file of files) {
    for (const [tag] of readFileSync(join(root, file), "utf8").matchAll(/<Link\b[^>]*>/g)) {
      if (/ownerTryItHref|PLAN_PANEL_HREF|["`]\/dashboard[^"`]*#/.test(tag!)) found.push(`${file}: ${tag}`);
    }
  }
  expect(found).toEqual([]);
});
