import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { headingSlug, REFERENCE_PAGES, referenceHref, renderReference, type ReferencePage } from "./reference";

const root = join(import.meta.dirname, "..", "..");
const pages = new Map(
  REFERENCE_PAGES.map((page) => [page, renderReference(readFileSync(join(root, "docs", `${page}.md`), "utf8"))]),
);
const idsOf = (html: string) => new Set([...html.matchAll(/ id="([^"]+)"/g)].map(([, id]) => id!));

describe("docs pages rendered for /docs/reference", () => {
  it("give each page its title", () => {
    expect(Object.fromEntries([...pages].map(([page, doc]) => [page, doc.title]))).toEqual({
      api: "API reference",
      forms: "Forms",
      webhooks: "Webhooks and change events",
      security: "Security review: OWASP API Security Top 10 (2023)",
      operations: "Operations",
      architecture: "Architecture",
    });
  });

  it("land every link between the pages on a heading that exists", () => {
    const broken: string[] = [];
    let checked = 0;
    for (const [page, doc] of pages) {
      for (const [, href] of doc.html.matchAll(/<a href="([^"]+)"/g)) {
        if (/^https?:/.test(href!)) continue;
        const [path, fragment] = href!.split("#");
        const target = path ? (path.replace("/docs/reference/", "") as ReferencePage) : page;
        const ids = idsOf(pages.get(target)?.html ?? "");
        checked++;
        if (!pages.has(target) || (fragment && !ids.has(fragment))) broken.push(`${page}: ${href}`);
      }
    }
    expect(broken).toEqual([]);
    expect(checked).toBeGreaterThan(20);
  });

  it("are linked from the guide and the sheets' docs pages at headings that exist", () => {
    const sources = ["app/docs/page.tsx", "app/docs/[sheetId]/reference-sections.tsx"]
      .map((file) => readFileSync(join(root, file), "utf8"))
      .join("\n");
    const links = [...sources.matchAll(/\/docs\/reference\/([a-z]+)(?:#([\w-]+))?/g)];
    expect(links.length).toBeGreaterThan(15);
    const broken = links
      .filter(
        ([, page, fragment]) =>
          !pages.has(page as ReferencePage) ||
          (fragment && !idsOf(pages.get(page as ReferencePage)!.html).has(fragment)),
      )
      .map(([href]) => href);
    expect(broken).toEqual([]);
  });

  it("rewrites links to other docs pages and drops links to files the app does not serve", () => {
    expect(referenceHref("api.md#filters")).toBe("/docs/reference/api#filters");
    expect(referenceHref("security.md")).toBe("/docs/reference/security");
    expect(referenceHref("#routes")).toBe("#routes");
    expect(referenceHref("https://www.standardwebhooks.com/")).toBe("https://www.standardwebhooks.com/");
    expect(referenceHref("../.env.example")).toBeNull();
    expect(referenceHref("notes.md")).toBeNull();
    expect(referenceHref("../../etc/api.md")).toBeNull();
    expect(renderReference("See [the settings](../.env.example).").html).toBe("<p>See the settings.</p>\n");
  });

  it("makes anchors as GitHub does", () => {
    expect(headingSlug("CSV, caching, freshness")).toBe("csv-caching-freshness");
    expect(headingSlug("Browser (publishable) keys")).toBe("browser-publishable-keys");
    expect(headingSlug("A kill -9 loses no count")).toBe("a-kill--9-loses-no-count");
    expect(headingSlug("API1: Broken Object Level Authorization")).toBe("api1-broken-object-level-authorization");
    expect(renderReference("## Faults and `/health`\n\n## Faults and `/health`\n").html).toContain(
      '<h2 id="faults-and-health-1">',
    );
  });

  it("shows markup written in a page as text", () => {
    const { html } = renderReference('<script>alert(1)</script>\n\nText <img src=x onerror="alert(1)">\n');
    expect(html).not.toMatch(/<script|<img/);
    expect(html).toContain("&#60;script&#62;");
  });

  it("puts code and tables in boxes of their own", () => {
    const { html } = renderReference("```bash\nnpm start\n```\n\n| a | b |\n|---|---|\n| 1 | 2 |\n");
    expect(html).toContain('<pre tabindex="0" data-lang="bash"><code>npm start</code></pre>');
    expect(html).toMatch(
      /<div role="region" aria-label="Table" tabindex="0" class="reference-table scroll-hint"><table>[\s\S]*<\/table><\/div>/,
    );
  });
});
