// The three steps to a first call, above the reference so a newcomer need not read it all first:
// where a key comes from, a first read and a first create. A sheet's docs page fills them with its
// real address, tab and columns; the guide shows the same steps with placeholders.
import Link from "next/link";
import { snippetsFor, type RequestExample } from "@/lib/docs/snippets";
import { CodeBlock } from "./[sheetId]/code-block";

export interface QuickStartSteps {
  /** The dashboard page where keys are created. */
  keysHref: string;
  /** The reference section on keys and permissions, for what the step leaves out. */
  keysDocHref: string;
  /** The tab the examples use; none when the sheet has no tab with columns yet. */
  tab?: string;
  read?: RequestExample;
  create?: RequestExample;
  /** Said instead of the create example when the sheet takes no writes. */
  noCreate?: React.ReactNode;
  /** Said under the steps, e.g. which names to replace. */
  note?: React.ReactNode;
}

// Curl first, to paste in a terminal; JavaScript for a page or Node. The reference adds Python.
const LANGUAGES = ["curl", "javascript"] as const;

function Step({ n, title, children }: { n: number; title: string; children: React.ReactNode }) {
  return (
    <li className="flex gap-3" data-testid="quick-start-step">
      <span
        aria-hidden
        className="flex h-6 w-6 shrink-0 items-center justify-center rounded-full bg-emerald-700 text-xs font-semibold text-white"
      >
        {n}
      </span>
      {/* min-w-0 lets the code block wrap inside the step instead of widening the page. */}
      <div className="min-w-0 flex-1 space-y-2">
        <h3 className="font-medium">{title}</h3>
        {children}
      </div>
    </li>
  );
}

export function QuickStart({ keysHref, keysDocHref, tab, read, create, noCreate, note }: QuickStartSteps) {
  const text = "text-sm text-slate-600 dark:text-slate-400";
  return (
    <section
      className="space-y-4 rounded-lg border border-slate-200 p-4 sm:p-6 dark:border-slate-800"
      data-testid="docs-quick-start"
      aria-labelledby="quick-start"
    >
      <h2 id="quick-start" className="text-xl font-semibold">
        Quick start
      </h2>
      <ol className="space-y-5">
        <Step n={1} title="Get a key">
          <p className={text}>
            The sheet&apos;s owner creates keys in the dashboard, on the sheet&apos;s page under{" "}
            <Link href={keysHref} prefetch={false} className="underline" data-testid="quick-start-keys-link">
              API keys
            </Link>
            ; a key&apos;s value is shown once. Use a <strong>secret key</strong> (<code>shk_…</code>) from servers and
            scripts, a <strong>browser (publishable) key</strong> (<code>shp_…</code>) in a web page: it only reads,
            from the origins you list. Send it in the <code>X-API-Key</code> header of every request, where the examples
            say <code>YOUR_API_KEY</code>.{" "}
            <a href={keysDocHref} className="underline">
              More on keys
            </a>
            .
          </p>
        </Step>
        <Step n={2} title={tab ? `Read the first rows of ${tab}` : "Read a tab"}>
          {read ? (
            <>
              <p className={text}>
                With a key holding the Read permission. Each row is a JSON object keyed by the column names.
              </p>
              <CodeBlock testId="quick-start-read" snippets={snippetsFor(read, LANGUAGES)} />
            </>
          ) : (
            <p className={text}>
              This sheet has no tab with column names yet: put them in row 1 of a tab, and its example shows here.
            </p>
          )}
        </Step>
        <Step n={3} title={tab ? `Add a row to ${tab}` : "Add a row"}>
          {create ? (
            <>
              <p className={text}>
                With a secret key holding Write: a JSON object keyed by the column names. Answers 201 with the row as
                stored, its <code>id</code> included.
              </p>
              <CodeBlock testId="quick-start-create" snippets={snippetsFor(create, LANGUAGES)} />
            </>
          ) : (
            <p className={text}>{noCreate}</p>
          )}
        </Step>
      </ol>
      {note && <p className="text-xs text-slate-500 dark:text-slate-400">{note}</p>}
    </section>
  );
}
