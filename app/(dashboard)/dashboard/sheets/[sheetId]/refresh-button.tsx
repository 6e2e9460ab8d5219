"use client";

import { useState, useTransition } from "react";
import { plural } from "@/app/components/plural";
import { refreshSchemaAction } from "../../actions";

export function RefreshSchemaButton({ sheetId }: { sheetId: string }) {
  const [pending, startTransition] = useTransition();
  const [message, setMessage] = useState<string | null>(null);

  return (
    <div className="flex items-center gap-3">
      <button
        type="button"
        data-testid="refresh-schema"
        disabled={pending}
        onClick={() =>
          startTransition(async () => {
            const result = await refreshSchemaAction({ sheetId });
            setMessage(result.ok ? `Refreshed: ${plural(result.data.tabs, "tab")}.` : result.error);
          })
        }
        className="rounded-md border border-slate-300 px-3 py-1.5 text-sm hover:bg-slate-50 disabled:opacity-60 dark:border-slate-700 dark:hover:bg-slate-900"
      >
        {pending ? "Refreshing…" : "Refresh schema"}
      </button>
      {message && (
        <span role="status" className="text-sm text-slate-600 dark:text-slate-400">
          {message}
        </span>
      )}
    </div>
  );
}
