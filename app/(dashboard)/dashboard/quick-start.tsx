// The first API call, ready to paste: the real address, a real tab and (right after it was
// created) the key itself, plus the way to the sheet's full docs page.
import Link from "next/link";
import { CodeBlock } from "@/app/docs/[sheetId]/code-block";
import { snippetsFor } from "@/lib/docs/snippets";

// The docs page reads the sheet (its example values come from Google): never prefetched, so
// showing a link costs no Google call.
export interface QuickStartTarget {
  baseUrl: string;
  sheetId: string;
  /** A tab of the sheet; none when its structure could not be read. */
  tab?: string;
}

/** `onCopied`: the example was copied (with the key in it, when `apiKey` is given). */
export function QuickStart({
  target,
  apiKey,
  onCopied,
}: {
  target: QuickStartTarget;
  apiKey?: string;
  onCopied?: () => void;
}) {
  const docs = `/docs/${target.sheetId}`;
  if (!target.tab) {
    return (
      <p className="text-sm text-slate-600 dark:text-slate-400" data-testid="quick-start">
        Every tab is at{" "}
        <code className="break-all">
          {target.baseUrl}/api/v1/{target.sheetId}/&#123;tab&#125;
        </code>
        .{" "}
        <Link href={docs} prefetch={false} className="font-medium underline" data-testid="docs-link">
          Read the API docs
        </Link>
      </p>
    );
  }
  const request = {
    method: "GET" as const,
    url: `${target.baseUrl}/api/v1/${target.sheetId}/${encodeURIComponent(target.tab)}?limit=5`,
    apiKey,
  };
  return (
    <div className="space-y-2" data-testid="quick-start">
      <p className="text-sm text-slate-700 dark:text-slate-300">
        {apiKey ? "Try it now: this lists the first rows of " : "List the first rows of "}
        <strong>{target.tab}</strong>
        {apiKey ? " with this key." : ` (put one of your keys in place of YOUR_API_KEY).`}
      </p>
      <CodeBlock
        testId="quick-start-code"
        snippets={snippetsFor(request, ["curl", "javascript"])}
        onCopied={onCopied}
      />
      <p className="text-xs text-slate-600 dark:text-slate-400" data-testid="quick-start-typed">
        Values come back as the sheet shows them (such as <code>&quot;$24.50&quot;</code> or{" "}
        <code>&quot;TRUE&quot;</code>); add <code>&amp;typed=true</code> for numbers, booleans and ISO dates.
      </p>
      <p className="text-sm">
        <Link
          href={docs}
          prefetch={false}
          className="font-medium text-emerald-700 underline dark:text-emerald-400"
          data-testid="docs-link"
        >
          API docs for this sheet
        </Link>
        <span className="text-slate-500 dark:text-slate-400">
          : every tab, filters, writes, errors and a Try it panel.
        </span>
      </p>
    </div>
  );
}
