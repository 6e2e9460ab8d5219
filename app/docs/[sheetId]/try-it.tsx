"use client";
// "Try it": runs a list or get request and shows the status, the rate-limit headers and the answer,
// sent from the browser with a pasted key (counted against the key's plan) or, for the signed-in
// owner, through their session on a separate allowance (app/docs/README.md).
import { useEffect, useRef, useState } from "react";
import type { ActionResult } from "@/lib/auth/actions";
import { ownerTryItHref, PLAN_PANEL_HREF } from "@/app/components/dashboard-links";
import { momentText, readerTimeZone } from "@/lib/moment-text";
import type { OwnerReadAnswer, OwnerReadRequest } from "@/lib/sheets/read/owner-reads";

const SHOWN_HEADERS = [
  "x-ratelimit-limit",
  "x-ratelimit-remaining",
  "x-ratelimit-reset",
  "retry-after",
  "x-cache",
  "x-request-id",
];

type Result = { status: number; headers: [string, string][]; body: string; quota?: Quota; limited?: string };
type Quota = { remaining: number; limit: number; resetAt: number };
type UsageWindows = { name: string; limit: number; remaining: number; reset_at: number }[];

const WINDOW_LABEL: Record<string, string> = {
  burst: "this minute",
  hour: "this hour",
  day: "today",
  month: "this billing period",
};
// Shown only after a request from this page, so always rendered in the browser: in the reader's zone.
const clock = (unixSeconds: number) => momentText(unixSeconds * 1000, "clock-seconds", readerTimeZone());
const inSeconds = (unixSeconds: number) => Math.max(0, Math.round(unixSeconds - Date.now() / 1000));

function quotaOf(headers: Headers): Quota | undefined {
  const limit = headers.get("x-ratelimit-limit");
  const remaining = headers.get("x-ratelimit-remaining");
  const reset = headers.get("x-ratelimit-reset");
  return limit && remaining && reset
    ? { limit: Number(limit), remaining: Number(remaining), resetAt: Number(reset) }
    : undefined;
}

/** Why a 429 happened and when it ends, in words, from the answer itself. */
function explain429(body: unknown, headers: Headers): string {
  const b = body as { message?: string; retry_after?: number; limit?: { allowed?: number; reset_at?: number } };
  const resetAt = b.limit?.reset_at ?? Number(headers.get("x-ratelimit-reset") ?? 0);
  const wait = b.retry_after ?? Number(headers.get("retry-after") ?? 0);
  const resets = resetAt ? ` It resets at ${clock(resetAt)}, in about ${wait || inSeconds(resetAt)} s.` : "";
  return `Rate limited (429): the key's account has used its plan's allowance. ${b.message ?? ""}${resets} Limits are per account, shared by all its keys and sheets.`;
}

/** A 429's two ways on, for the sheet's owner: their own Try it, which is not counted, and the plan panel. */
function WaysOnFor429({ sheetId }: { sheetId: string }) {
  return (
    <span data-testid="tryit-ways-on" className="mt-1 block">
      If this is your sheet:{" "}
      <a href={ownerTryItHref(sheetId)} className="font-medium underline">
        read it with Try it as the owner
      </a>{" "}
      (not counted against the plan) or{" "}
      <a href={PLAN_PANEL_HREF} className="font-medium underline">
        change plan
      </a>
      .
    </span>
  );
}

export function TryIt({
  sheetId,
  tabs,
  planNote,
  asOwner,
}: {
  sheetId: string;
  tabs: string[];
  /** The plan's limits in words, shown before the first request. */
  planNote?: string;
  asOwner?: (request: OwnerReadRequest & { sheetId: string }) => Promise<ActionResult<OwnerReadAnswer>>;
}) {
  const [key, setKey] = useState("");
  const [tab, setTab] = useState(tabs[0] ?? "");
  const [rowId, setRowId] = useState("");
  const [query, setQuery] = useState("limit=5");
  const [busy, setBusy] = useState(false);
  const [usage, setUsage] = useState<UsageWindows | null>(null);
  const [result, setResult] = useState<Result | { error: string } | null>(null);

  const path = `/api/v1/${sheetId}/${encodeURIComponent(tab)}${rowId.trim() ? `/${encodeURIComponent(rowId.trim())}` : ""}${!rowId.trim() && query.trim() ? `?${query.trim().replace(/^\?/, "")}` : ""}`;

  /** The key's remaining quota, from GET /billing/usage (never counted); needs Analytics. */
  async function checkQuota(value: string) {
    setUsage(null);
    if (!value.trim()) return;
    try {
      const res = await fetch("/billing/usage", { headers: { "X-API-Key": value.trim() } });
      if (res.ok) setUsage(((await res.json()) as { data: { windows: UsageWindows | null } }).data.windows);
    } catch {
      // shown after the first request instead
    }
  }

  async function sendWithKey(): Promise<Result> {
    const res = await fetch(path, { headers: { "X-API-Key": key.trim() } });
    const text = await res.text();
    let parsed: unknown;
    let body = text;
    try {
      parsed = JSON.parse(text);
      body = JSON.stringify(parsed, null, 2);
    } catch {
      // not JSON: show as is
    }
    return {
      status: res.status,
      headers: SHOWN_HEADERS.flatMap((h) => (res.headers.get(h) ? [[h, res.headers.get(h)!] as [string, string]] : [])),
      body,
      // A 401's headers are this address's allowance for bad keys, not any plan's.
      quota: res.status === 401 ? undefined : quotaOf(res.headers),
      limited: res.status === 429 ? explain429(parsed, res.headers) : undefined,
    };
  }

  async function sendAsOwner(send: NonNullable<typeof asOwner>): Promise<Result | { error: string }> {
    const answer = await send({ sheetId, tab, rowId, query: rowId.trim() ? "" : query });
    if (!answer.ok) return { error: answer.error };
    const { status, body, cache } = answer.data;
    return {
      status,
      headers: cache ? [["x-cache", cache]] : [],
      body: JSON.stringify(body, null, 2),
      limited: status === 429 ? `${String(body.message)} Your plan and your keys are not affected.` : undefined,
    };
  }

  // On a phone the answer comes in below the fold: it is brought into view as it arrives.
  const answer = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (result) answer.current?.scrollIntoView({ block: "nearest", behavior: "smooth" });
  }, [result]);

  async function send() {
    setBusy(true);
    try {
      setResult(asOwner ? await sendAsOwner(asOwner) : await sendWithKey());
    } catch (err) {
      setResult({ error: (err as Error).message });
    } finally {
      setBusy(false);
    }
  }

  const input = "w-full rounded-md border border-slate-300 bg-transparent px-3 py-2 text-sm dark:border-slate-700";
  const quota = result && "quota" in result ? result.quota : undefined;
  return (
    <div
      className="space-y-4 rounded-lg border border-slate-200 p-4 sm:p-6 dark:border-slate-800"
      data-testid={asOwner ? "owner-try-it" : "try-it"}
    >
      <div className="grid gap-3 sm:grid-cols-2">
        {!asOwner && (
          <label className="space-y-1 text-sm sm:col-span-2">
            <span className="text-slate-600 dark:text-slate-400">API key (kept in this page only)</span>
            <input
              data-testid="tryit-key"
              type="password"
              autoComplete="off"
              value={key}
              onChange={(e) => {
                setKey(e.target.value);
                setResult(null);
              }}
              onBlur={(e) => void checkQuota(e.target.value)}
              placeholder="shk_..."
              className={`${input} font-mono`}
            />
          </label>
        )}
        <label className="space-y-1 text-sm">
          <span className="text-slate-600 dark:text-slate-400">Tab</span>
          <select data-testid="tryit-tab" value={tab} onChange={(e) => setTab(e.target.value)} className={input}>
            {tabs.map((t) => (
              <option key={t} value={t}>
                {t}
              </option>
            ))}
          </select>
        </label>
        <label className="space-y-1 text-sm">
          <span className="text-slate-600 dark:text-slate-400">Row id (empty: list)</span>
          <input data-testid="tryit-row" value={rowId} onChange={(e) => setRowId(e.target.value)} className={input} />
        </label>
        <label className="space-y-1 text-sm sm:col-span-2">
          <span className="text-slate-600 dark:text-slate-400">Query (lists only)</span>
          <input
            data-testid="tryit-query"
            value={query}
            onChange={(e) => setQuery(e.target.value)}
            placeholder="limit=5&sort=name&filter=status=open"
            className={`${input} font-mono`}
          />
        </label>
      </div>
      <div className="flex flex-wrap items-center gap-3">
        <button
          data-testid="tryit-send"
          onClick={send}
          disabled={busy || !tab}
          className="rounded-md bg-emerald-700 px-4 py-2 text-sm font-medium text-white hover:bg-emerald-800 disabled:opacity-50"
        >
          {busy ? "Sending…" : "Send"}
        </button>
        <code className="min-w-0 break-all text-xs text-slate-500 dark:text-slate-400">GET {path}</code>
      </div>
      <p data-testid="tryit-quota" className="text-xs text-slate-600 dark:text-slate-400">
        {asOwner
          ? "Reads as you, through your dashboard session: not counted against your plan (up to 120 reads an hour), same data and cache as the API."
          : result && "status" in result && result.status === 401
            ? "The key was not accepted (401), so nothing was counted against any plan. Paste a key of this sheet, whole, as the dashboard showed it."
            : quota
              ? `${quota.remaining} of ${quota.limit} requests left in the tightest window; it resets at ${clock(quota.resetAt)}. Each request here counts against the plan of the key's account.`
              : usage
                ? `Left: ${usage.map((w) => `${w.remaining.toLocaleString("en-US")} of ${w.limit.toLocaleString("en-US")} ${WINDOW_LABEL[w.name] ?? w.name}`).join(" · ")}. Each request here counts against the plan.`
                : `Each request here counts against the plan of the key's account${planNote ? ` (${planNote})` : ""}.`}
      </p>
      <div ref={answer}>
        {result &&
          ("error" in result ? (
            <p role="alert" className="text-sm text-red-700 dark:text-red-300">
              {result.error}
            </p>
          ) : (
            <div className="space-y-2">
              <p className="text-sm">
                Status{" "}
                <span
                  data-testid="tryit-status"
                  className={`font-mono font-semibold ${result.status < 300 ? "text-emerald-600" : "text-red-600"}`}
                >
                  {result.status}
                </span>
              </p>
              {result.limited && (
                <p
                  role="alert"
                  data-testid="tryit-limited"
                  className="rounded-md bg-amber-50 p-3 text-sm text-amber-900 dark:bg-amber-950 dark:text-amber-100"
                >
                  {result.limited}
                  {!asOwner && <WaysOnFor429 sheetId={sheetId} />}
                </p>
              )}
              {result.headers.length > 0 && (
                <dl data-testid="tryit-headers" className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 font-mono text-xs">
                  {result.headers.map(([name, value]) => (
                    <div key={name} className="contents">
                      <dt className="text-slate-500 dark:text-slate-400">{name}</dt>
                      <dd className="break-all">{value}</dd>
                    </div>
                  ))}
                </dl>
              )}
              <pre
                tabIndex={0}
                data-testid="tryit-body"
                className="max-h-96 overflow-auto whitespace-pre-wrap [overflow-wrap:anywhere] rounded-md bg-slate-50 p-3 text-xs dark:bg-slate-900"
              >
                {result.body}
              </pre>
            </div>
          ))}
      </div>
    </div>
  );
}
