// Muted text must stay readable in dark mode: a grey from slate-500 up, on the dark page
// (slate-900/950), is under WCAG's 4.5:1 for small text, so any class list that sets one for
// light mode also sets a dark-mode text colour.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";

const root = import.meta.dirname;

it("every class list with a slate-500+ text colour sets a dark-mode text colour too", () => {
  const files = readdirSync(root, { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith(".tsx"));
  const bare: string[] = [];
  for (const file of files) {
    for (const [, classes] of readFileSync(join(root, file), "utf8").matchAll(/className="([^"]*)"/g)) {
      const light = classes!.split(/\s+/).some((c) => /^text-slate-(500|600|700|800|900)$/.test(c));
      if (light && !/(^|\s)dark:text-/.test(classes!)) bare.push(`${file}: ${classes}`);
    }
  }
  expect(bare).toEqual([]);
});
