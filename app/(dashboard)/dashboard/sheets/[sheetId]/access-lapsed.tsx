"use client";

import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import type { AccessState } from "@/db/schema";
import { registerSheetAction } from "../../actions";

/**
 * The registration's access lapsed in Google (DECISIONS 18): what happened, what the keys answer
 * now, and "Prove access again", which registers the sheet again (Google is asked with the
 * account's grant; restored, the same keys work again). Nothing when access is current.
 */
export function AccessLapsedNotice({ sheetId, state, email }: { sheetId: string; state: AccessState; email: string | null }) {
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  const [message, setMessage] = useState<string | null>(null);
  if (state !== "suspended" && state !== "read_only") return null;
  const who = email ? `Your Google account (${email})` : "The Google account you registered this sheet with";
  const proveAgain = () =>
    startTransition(async () => {
      const result = await registerSheetAction({ sheetUrl: sheetId });
      if (result.ok) router.refresh();
      setMessage(result.ok ? "Google confirmed your access again." : result.error);
    });
  return (
    <div role="alert" data-testid="access-lapsed" data-state={state} className="space-y-3 rounded-md border border-red-300 bg-red-50 p-4 text-sm text-red-900 dark:border-red-800 dark:bg-red-950 dark:text-red-100">
      {state === "suspended" ? (
        <p>
          <strong>Suspended.</strong> {who} can no longer open this spreadsheet in Google (removed from it, link sharing turned off, or
          SheetAPI&apos;s access to your Google files revoked). Every key of this sheet answers 403 and nothing of it is served, not even
          from a cache; webhook deliveries have stopped and those waiting were dropped.
        </p>
      ) : (
        <p>
          <strong>Read-only.</strong> {who} can no longer edit this spreadsheet in Google; it can still view it. Reads go on; writes
          answer 403.
        </p>
      )}
      <p>Once you have access again in Google Sheets, prove it: your keys work again as they were.</p>
      <div className="flex flex-wrap items-center gap-3">
        <button type="button" data-testid="prove-again" disabled={pending} onClick={proveAgain}
          className="rounded-md bg-red-700 px-3 py-1.5 font-medium text-white hover:bg-red-800 disabled:opacity-60 dark:bg-red-600 dark:hover:bg-red-500">
          {pending ? "Asking Google…" : "Prove access again"}
        </button>
        <a href={`/auth/google?sheet_url=${encodeURIComponent(sheetId)}`} className="font-medium underline">Connect Google again</a>
      </div>
      {message && <p role="status" data-testid="prove-again-result" className="break-words">{message}</p>}
    </div>
  );
}
