"use client";
// The owner's cache settings for one sheet: how long reads may be served from cache (the bound on
// how late an edit made in Google Sheets shows), and how old a copy may be served while Google is down.
import { useState, useTransition } from "react";
import { saveCacheSettingsAction } from "../../actions";

export function CacheSettings({
  sheetId,
  cacheTtlSeconds,
  maxStaleSeconds,
}: {
  sheetId: string;
  cacheTtlSeconds: number;
  maxStaleSeconds: number;
}) {
  const [pending, startTransition] = useTransition();
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const input = "w-28 rounded-md border border-slate-300 bg-transparent px-3 py-1.5 text-sm dark:border-slate-700";
  return (
    <form
      data-testid="cache-settings"
      className="flex flex-col gap-3 sm:flex-row sm:items-end"
      action={(form) =>
        startTransition(async () => {
          const result = await saveCacheSettingsAction({
            sheetId,
            cacheTtlSeconds: form.get("cacheTtlSeconds"),
            maxStaleSeconds: form.get("maxStaleSeconds"),
          });
          setMessage(result.ok ? { ok: true, text: "Saved." } : { ok: false, text: result.error });
        })
      }
    >
      <label className="space-y-1 text-sm">
        <span className="block text-slate-600 dark:text-slate-400">Cache TTL (s)</span>
        <input
          name="cacheTtlSeconds"
          type="number"
          min={1}
          max={3600}
          defaultValue={cacheTtlSeconds}
          data-testid="cache-ttl"
          className={input}
        />
      </label>
      <label className="space-y-1 text-sm">
        <span className="block text-slate-600 dark:text-slate-400">Serve stale up to (s)</span>
        <input
          name="maxStaleSeconds"
          type="number"
          min={0}
          max={86400}
          defaultValue={maxStaleSeconds}
          data-testid="max-stale"
          className={input}
        />
      </label>
      <button
        type="submit"
        disabled={pending}
        data-testid="save-cache-settings"
        className="rounded-md border border-slate-300 px-3 py-1.5 text-sm hover:bg-slate-50 disabled:opacity-60 dark:border-slate-700 dark:hover:bg-slate-900"
      >
        {pending ? "Saving…" : "Save cache settings"}
      </button>
      {message && (
        <span
          role="status"
          className={`text-sm ${message.ok ? "text-emerald-700 dark:text-emerald-400" : "text-red-700 dark:text-red-300"}`}
        >
          {message.text}
        </span>
      )}
    </form>
  );
}
