"use client";

import { useEffect, useState } from "react";

/** Shows a key value once, with a copy button. */
export function NewKeyNotice({ value }: { value: string }) {
  const [copied, setCopied] = useState(false);

  return (
    <div role="status" data-testid="new-key" className="rounded-lg border border-amber-300 bg-amber-50 p-4 dark:border-amber-700 dark:bg-amber-950">
      <p className="font-medium text-amber-900 dark:text-amber-100">Your API key. Copy it now: it will not be shown again.</p>
      <div className="mt-3 flex items-center gap-2">
        <code data-testid="new-key-value" className="flex-1 overflow-x-auto rounded bg-white px-3 py-2 font-mono text-sm dark:bg-slate-900">
          {value}
        </code>
        <button
          type="button"
          data-testid="copy-key"
          onClick={() => void navigator.clipboard?.writeText(value).then(() => setCopied(true))}
          className="rounded-md bg-amber-600 px-3 py-2 text-sm font-medium text-white hover:bg-amber-700"
        >
          {copied ? "Copied" : "Copy"}
        </button>
      </div>
    </div>
  );
}

/**
 * A key handed over by a redirecting flow, in a cookie the server forgets as soon as the key is
 * shown. Always rendered, so the value survives the refresh that forgetting it causes.
 */
export function FlashKeyNotice({ value, forget }: { value?: string; forget: () => Promise<void> }) {
  const [kept] = useState(value);
  useEffect(() => {
    if (kept) void forget();
  }, [kept, forget]);
  return kept ? <NewKeyNotice value={kept} /> : null;
}
