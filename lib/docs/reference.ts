// The repository's docs pages (docs/<page>.md) as the app serves them at /docs/reference/<page>:
// one text for readers of the repository and readers of the site, so the two never drift apart.
// The files are read from disk when first asked for (next.config.ts traces docs/*.md into the
// standalone build) and kept rendered for the life of the process.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { Marked, type Tokens } from "marked";

export const REFERENCE_PAGES = ["api", "forms", "webhooks", "security", "operations", "architecture"] as const;
export type ReferencePage = (typeof REFERENCE_PAGES)[number];

export const isReferencePage = (name: string): name is ReferencePage =>
  (REFERENCE_PAGES as readonly string[]).includes(name);

export const referencePath = (page: ReferencePage) => `/docs/reference/${page}`;

export interface RenderedReference {
  title: string;
  html: string;
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * A heading's anchor as GitHub (and remark-validate-links, which checks the links in CI) makes
 * it: lower case, punctuation dropped, each space a hyphen. Links written for GitHub then land
 * on the same heading in the app.
 */
export function headingSlug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, "")
    .replace(/ /g, "-");
}

const PAGE_LINK = /^([a-z]+)\.md(#[^\s]*)?$/;

/**
 * Where a link of a docs page goes in the app: another docs page (`api.md#filters`) to its
 * reference page, a heading of the same page and outside addresses as written. Other repository
 * files (`../.env.example`) are not served by the app: null, and the link becomes its text.
 */
export function referenceHref(href: string): string | null {
  if (href.startsWith("#") || /^(https?:|mailto:)/.test(href)) return href;
  const page = PAGE_LINK.exec(href);
  if (page && isReferencePage(page[1]!)) return `${referencePath(page[1])}${page[2] ?? ""}`;
  return null;
}

export function renderReference(markdown: string): RenderedReference {
  const slugsSeen = new Map<string, number>();
  let title = "";
  const marked = new Marked({
    gfm: true,
    renderer: {
      heading({ tokens, depth }: Tokens.Heading) {
        const text = this.parser.parseInline(tokens, this.parser.textRenderer);
        const base = headingSlug(text);
        const seen = slugsSeen.get(base) ?? 0;
        slugsSeen.set(base, seen + 1);
        if (depth === 1 && !title) title = text;
        return `<h${depth} id="${seen ? `${base}-${seen}` : base}">${this.parser.parseInline(tokens)}</h${depth}>\n`;
      },
      link({ href, title: linkTitle, tokens }: Tokens.Link) {
        const inner = this.parser.parseInline(tokens);
        const target = referenceHref(href);
        if (target === null) return inner;
        return `<a href="${escapeHtml(target)}"${linkTitle ? ` title="${escapeHtml(linkTitle)}"` : ""}>${inner}</a>`;
      },
      code({ text, lang }: Tokens.Code) {
        // Long lines scroll inside their own box, never the page; focusable to scroll by keyboard.
        const label = lang ? ` data-lang="${escapeHtml(lang)}"` : "";
        return `<pre tabindex="0"${label}><code>${escapeHtml(text)}</code></pre>\n`;
      },
      // The pages are the repository's own, but nothing in them is taken as markup to run.
      html({ text }: Tokens.HTML | Tokens.Tag) {
        return escapeHtml(text);
      },
    },
  });
  const body = marked.parse(markdown, { async: false });
  // A wide table scrolls sideways inside its own box.
  const html = body
    .replace(
      /<table>/g,
      '<div role="region" aria-label="Table" tabindex="0" class="reference-table scroll-hint"><table>',
    )
    .replace(/<\/table>/g, "</table></div>");
  return { title, html };
}

const rendered = new Map<ReferencePage, Promise<RenderedReference>>();

export function referencePage(page: ReferencePage): Promise<RenderedReference> {
  let doc = rendered.get(page);
  if (!doc) {
    doc = readFile(join(process.cwd(), "docs", `${page}.md`), "utf8").then(renderReference);
    doc.catch(() => rendered.delete(page));
    rendered.set(page, doc);
  }
  return doc;
}
