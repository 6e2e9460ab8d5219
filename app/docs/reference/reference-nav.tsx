import Link from "next/link";
import { REFERENCE_PAGES, referencePath, type ReferencePage } from "@/lib/docs/reference";

export const REFERENCE_LABELS: Record<ReferencePage, string> = {
  api: "API",
  forms: "Forms",
  webhooks: "Webhooks",
  security: "Security",
  operations: "Operations",
  architecture: "Architecture",
};

/** The reference pages, the current one marked. */
export function ReferenceNav({ current }: { current?: ReferencePage }) {
  return (
    <nav aria-label="Reference pages" className="flex flex-wrap gap-2 text-sm">
      <Link
        href="/docs"
        className="rounded-full border border-slate-200 px-3 py-1 hover:bg-slate-50 dark:border-slate-800 dark:hover:bg-slate-900"
      >
        Guide
      </Link>
      {REFERENCE_PAGES.map((page) => (
        <Link
          key={page}
          href={referencePath(page)}
          aria-current={page === current ? "page" : undefined}
          className="rounded-full border border-slate-200 px-3 py-1 hover:bg-slate-50 aria-[current=page]:border-slate-900 aria-[current=page]:font-medium dark:border-slate-800 dark:hover:bg-slate-900 dark:aria-[current=page]:border-white"
        >
          {REFERENCE_LABELS[page]}
        </Link>
      ))}
    </nav>
  );
}
