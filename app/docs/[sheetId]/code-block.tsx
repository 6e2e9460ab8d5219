"use client";
// A request example in curl, JavaScript and Python, with a language switch and a copy button.
import { useState } from "react";

export function CodeBlock({
  snippets,
  testId,
  onCopied,
}: {
  snippets: { language: string; label: string; code: string }[];
  testId?: string;
  onCopied?: () => void;
}) {
  const [active, setActive] = useState(0);
  const [copied, setCopied] = useState(false);
  const current = snippets[active]!;
  return (
    <div data-testid={testId} className="overflow-hidden rounded-lg border border-slate-200 dark:border-slate-800">
      <div className="flex items-center justify-between border-b border-slate-200 bg-slate-50 px-2 dark:border-slate-800 dark:bg-slate-900">
        <div role="tablist" className="flex">
          {snippets.map((s, i) => (
            <button
              key={s.language}
              role="tab"
              aria-selected={i === active}
              onClick={() => setActive(i)}
              className={`min-h-11 px-3 py-2 text-xs sm:min-h-0 ${i === active ? "border-b-2 border-emerald-500 font-medium" : "text-slate-500 dark:text-slate-400 hover:text-slate-800 dark:hover:text-slate-200"}`}
            >
              {s.label}
            </button>
          ))}
        </div>
        <button
          data-testid="copy-snippet"
          onClick={async () => {
            await navigator.clipboard.writeText(current.code);
            setCopied(true);
            onCopied?.();
            setTimeout(() => setCopied(false), 1500);
          }}
          className="min-h-11 min-w-11 rounded px-2 py-1 text-xs text-slate-600 hover:bg-slate-200 sm:min-h-0 sm:min-w-0 dark:text-slate-300 dark:hover:bg-slate-800"
        >
          {copied ? "Copied" : "Copy"}
        </button>
      </div>
      <pre
        tabIndex={0}
        className="overflow-x-auto bg-white p-4 text-xs leading-relaxed whitespace-pre-wrap [overflow-wrap:anywhere] dark:bg-slate-950"
        data-language={current.language}
      >
        <code>{current.code}</code>
      </pre>
    </div>
  );
}
