"use client";
// "Try it": runs a list or get request from the browser with a pasted key (the API answers any
// origin), and shows the status, the rate-limit headers and the answer. The key stays in this
// page's memory only.
import { useState } from "react";

const SHOWN_HEADERS = ["x-ratelimit-limit", "x-ratelimit-remaining", "x-ratelimit-reset", "x-cache", "x-request-id"];

export function TryIt({ sheetId, tabs }: { sheetId: string; tabs: string[] }) {
  const [key, setKey] = useState("");
  const [tab, setTab] = useState(tabs[0] ?? "");
  const [rowId, setRowId] = useState("");
  const [query, setQuery] = useState("limit=5");
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<{ status: number; headers: [string, string][]; body: string } | { error: string } | null>(null);

  const path = `/api/v1/${sheetId}/${encodeURIComponent(tab)}${rowId.trim() ? `/${encodeURIComponent(rowId.trim())}` : ""}${!rowId.trim() && query.trim() ? `?${query.trim().replace(/^\?/, "")}` : ""}`;

  async function send() {
    setBusy(true);
    try {
      const res = await fetch(path, { headers: { "X-API-Key": key.trim() } });
      const text = await res.text();
      let body = text;
      try {
        body = JSON.stringify(JSON.parse(text), null, 2);
      } catch {
        // not JSON: show as is
      }
      setResult({ status: res.status, headers: SHOWN_HEADERS.flatMap((h) => (res.headers.get(h) ? [[h, res.headers.get(h)!] as [string, string]] : [])), body });
    } catch (err) {
      setResult({ error: (err as Error).message });
    } finally {
      setBusy(false);
    }
  }

  const input = "w-full rounded-md border border-slate-300 bg-transparent px-3 py-2 text-sm dark:border-slate-700";
  return (
    <div className="space-y-4 rounded-lg border border-slate-200 p-4 sm:p-6 dark:border-slate-800" data-testid="try-it">
      <div className="grid gap-3 sm:grid-cols-2">
        <label className="space-y-1 text-sm sm:col-span-2">
          <span className="text-slate-600 dark:text-slate-400">API key (kept in this page only)</span>
          <input data-testid="tryit-key" type="password" autoComplete="off" value={key} onChange={(e) => setKey(e.target.value)} placeholder="shk_..." className={`${input} font-mono`} />
        </label>
        <label className="space-y-1 text-sm">
          <span className="text-slate-600 dark:text-slate-400">Tab</span>
          <select data-testid="tryit-tab" value={tab} onChange={(e) => setTab(e.target.value)} className={input}>
            {tabs.map((t) => <option key={t} value={t}>{t}</option>)}
          </select>
        </label>
        <label className="space-y-1 text-sm">
          <span className="text-slate-600 dark:text-slate-400">Row id (empty: list)</span>
          <input data-testid="tryit-row" value={rowId} onChange={(e) => setRowId(e.target.value)} className={input} />
        </label>
        <label className="space-y-1 text-sm sm:col-span-2">
          <span className="text-slate-600 dark:text-slate-400">Query (lists only)</span>
          <input data-testid="tryit-query" value={query} onChange={(e) => setQuery(e.target.value)} placeholder="limit=5&sort=name&filter=status=open" className={`${input} font-mono`} />
        </label>
      </div>
      <div className="flex flex-wrap items-center gap-3">
        <button data-testid="tryit-send" onClick={send} disabled={busy || !tab} className="rounded-md bg-emerald-600 px-4 py-2 text-sm font-medium text-white hover:bg-emerald-700 disabled:opacity-50">
          {busy ? "Sending…" : "Send"}
        </button>
        <code className="break-all text-xs text-slate-500">GET {path}</code>
      </div>
      {result && ("error" in result ? (
        <p role="alert" className="text-sm text-red-700 dark:text-red-300">{result.error}</p>
      ) : (
        <div className="space-y-2">
          <p className="text-sm">
            Status <span data-testid="tryit-status" className={`font-mono font-semibold ${result.status < 300 ? "text-emerald-600" : "text-red-600"}`}>{result.status}</span>
          </p>
          {result.headers.length > 0 && (
            <dl data-testid="tryit-headers" className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 font-mono text-xs">
              {result.headers.map(([name, value]) => (
                <div key={name} className="contents"><dt className="text-slate-500">{name}</dt><dd className="break-all">{value}</dd></div>
              ))}
            </dl>
          )}
          <pre data-testid="tryit-body" className="max-h-96 overflow-auto rounded-md bg-slate-50 p-3 text-xs dark:bg-slate-900">{result.body}</pre>
        </div>
      ))}
    </div>
  );
}
