"use client";
// The owner's choice of whether the public docs page shows the sheet's own first rows as examples
// (only ever while anyone with the sheet's link can view it) or values made up from column types.
import { useState, useTransition } from "react";
import { saveDocsExamplesAction } from "../../actions";

export function DocsExamples({ sheetId, docsExamples }: { sheetId: string; docsExamples: boolean }) {
  const [pending, startTransition] = useTransition();
  const [on, setOn] = useState(docsExamples);
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  return (
    <div className="flex items-start gap-3 text-sm" data-testid="docs-examples">
      <input
        id="docs-examples"
        type="checkbox"
        checked={on}
        disabled={pending}
        data-testid="docs-examples-toggle"
        aria-describedby="docs-examples-help"
        className="mt-1"
        onChange={(e) => {
          const wanted = e.target.checked;
          setOn(wanted);
          startTransition(async () => {
            const result = await saveDocsExamplesAction({ sheetId, docsExamples: wanted });
            // Shows what is saved: back to the former choice when the save failed.
            setOn(result.ok ? result.data.docsExamples : !wanted);
            setMessage(result.ok ? { ok: true, text: wanted ? "Saved: the docs page may show the sheet's first rows." : "Saved: the docs page shows made-up values." } : { ok: false, text: result.error });
          });
        }}
      />
      <div className="space-y-1">
        <label htmlFor="docs-examples" className="block font-medium">Show the sheet&apos;s own first rows as examples on the public docs page</label>
        <p id="docs-examples-help" className="text-slate-600 dark:text-slate-400">
          Only while anyone with the sheet&apos;s link can view it (they can read those rows in Google Sheets anyway); otherwise, or with
          this off, examples are made up from the column types. Tab and column names always appear there. Saved as soon as it changes.
        </p>
        {message && <p role="status" className={message.ok ? "text-emerald-700 dark:text-emerald-400" : "text-red-700 dark:text-red-300"}>{message.text}</p>}
      </div>
    </div>
  );
}
