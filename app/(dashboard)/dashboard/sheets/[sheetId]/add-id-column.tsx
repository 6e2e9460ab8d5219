"use client";

import { useState, useTransition } from "react";
import { addIdColumnAction } from "../../actions";

/** The notice for a tab whose rows are identified by row number, with the offer to fix it. */
export function AddIdColumn({ sheetId, tab, writable }: { sheetId: string; tab: string; writable: boolean }) {
  const [pending, startTransition] = useTransition();
  const [message, setMessage] = useState<string | null>(null);
  return (
    <div
      role="note"
      data-testid="no-id-column"
      className="border-b border-amber-200 bg-amber-50 px-4 py-2 text-sm text-amber-900 dark:border-amber-900 dark:bg-amber-950 dark:text-amber-100"
    >
      No <code>id</code> column: rows are identified by row number, which moves when rows above are inserted or deleted.{" "}
      {writable && (
        <button
          type="button"
          data-testid="add-id-column"
          disabled={pending}
          onClick={() =>
            startTransition(async () => {
              const result = await addIdColumnAction({ sheetId, tab });
              setMessage(result.ok ? `Added an id column, numbering ${result.data.rows} rows.` : result.error);
            })
          }
          className="ml-1 rounded border border-amber-400 px-2 py-0.5 font-medium hover:bg-amber-100 disabled:opacity-60 dark:hover:bg-amber-900"
        >
          {pending ? "Adding…" : "Add an id column (1, 2, 3…)"}
        </button>
      )}
      {message && (
        <span role="status" className="ml-2">
          {message}
        </span>
      )}
    </div>
  );
}
