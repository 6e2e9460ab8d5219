// GET /docs/reference/{page}: the repository's docs pages (docs/{page}.md) as the site shows
// them, so the guide and each sheet's docs link to the full text instead of repeating it. Only
// the listed pages exist; any other name is a 404 (no path reaches the disk unchecked).
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { isReferencePage, referencePage } from "@/lib/docs/reference";
import { ReferenceNav } from "../reference-nav";

// Pages under /docs are rendered per request, each with its own script nonce (proxy.ts).
export const dynamic = "force-dynamic";

type Params = { params: Promise<{ page: string }> };

export async function generateMetadata({ params }: Params): Promise<Metadata> {
  const { page } = await params;
  if (!isReferencePage(page)) return {};
  return { title: `${(await referencePage(page)).title} · SheetAPI` };
}

// The rendered Markdown carries no classes: its look is given here, element by element.
const PROSE = [
  "space-y-4 leading-relaxed text-slate-700 dark:text-slate-300",
  "[&_h1]:text-3xl [&_h1]:font-bold [&_h1]:text-slate-900 dark:[&_h1]:text-white",
  "[&_h2]:mt-10 [&_h2]:border-t [&_h2]:border-slate-200 [&_h2]:pt-8 [&_h2]:text-xl [&_h2]:font-semibold [&_h2]:text-slate-900 dark:[&_h2]:border-slate-800 dark:[&_h2]:text-white",
  "[&_h3]:mt-6 [&_h3]:text-lg [&_h3]:font-semibold [&_h3]:text-slate-900 dark:[&_h3]:text-white",
  "[&_:is(h1,h2,h3)]:scroll-mt-4",
  "[&_a]:underline [&_a]:underline-offset-2 hover:[&_a]:text-slate-900 dark:hover:[&_a]:text-white",
  "[&_code]:rounded [&_code]:bg-slate-100 [&_code]:px-1 [&_code]:font-mono [&_code]:text-[0.875em] dark:[&_code]:bg-slate-900",
  "[&_pre]:overflow-x-auto [&_pre]:rounded-md [&_pre]:bg-slate-100 [&_pre]:p-3 [&_pre]:text-xs [&_pre]:leading-normal dark:[&_pre]:bg-slate-900",
  "[&_pre_code]:whitespace-pre [&_pre_code]:bg-transparent [&_pre_code]:p-0 [&_pre_code]:[overflow-wrap:normal]",
  "[&_ul]:list-disc [&_ul]:space-y-1 [&_ul]:pl-6 [&_ol]:list-decimal [&_ol]:space-y-1 [&_ol]:pl-6",
  // A table keeps the width its words need (up to the column's) and scrolls inside its box on a
  // phone (with the shadow of .scroll-hint), rather than squeezing its columns to a letter each.
  "[&_.reference-table]:overflow-x-auto [&_table]:w-max [&_table]:max-w-[52rem] [&_table]:text-left [&_table]:text-sm",
  "[&_th]:px-2 [&_th]:py-1 [&_th]:font-medium [&_th]:text-slate-900 dark:[&_th]:text-white",
  "[&_td]:px-2 [&_td]:py-1.5 [&_td]:align-top [&_tr]:border-t [&_tr]:border-slate-200 dark:[&_tr]:border-slate-800",
].join(" ");

export default async function ReferencePage({ params }: Params) {
  const { page } = await params;
  if (!isReferencePage(page)) notFound();
  const doc = await referencePage(page);
  return (
    <article className="space-y-8">
      <ReferenceNav current={page} />
      <div className={PROSE} data-testid="reference-page" dangerouslySetInnerHTML={{ __html: doc.html }} />
    </article>
  );
}
