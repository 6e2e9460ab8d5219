"use client";
// The sheet's forms: each form key with its tab and its counts, and the form that makes the next
// one, answering the key once with the ready HTML to paste into a page (docs/forms.md).
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import type { FormKeySummary } from "@/lib/keys/form-keys";
import { formSnippet } from "@/lib/forms/snippet";
import type { ColumnModel } from "@/lib/sheets/values/tab-model";
import { revokeKeyAction } from "../../keys/actions";
import { createFormKeyAction } from "./forms-actions";

type Tab = { name: string; columns: Pick<ColumnModel, "name" | "type">[] };
const lines = (text: string) =>
  text
    .split(/[\n,]/)
    .map((s) => s.trim())
    .filter(Boolean);
const field =
  "w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm dark:border-slate-700 dark:bg-slate-900";

export function FormsPanel({
  sheetId,
  baseUrl,
  tabs,
  keys,
}: {
  sheetId: string;
  baseUrl: string;
  tabs: Tab[];
  keys: FormKeySummary[];
}) {
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  const [error, setError] = useState<string | null>(null);
  const [created, setCreated] = useState<{ value: string; snippet: string } | null>(null);
  const [draft, setDraft] = useState({
    name: "",
    tab: tabs[0]?.name ?? "",
    origins: "",
    redirects: "",
    fields: "",
    unknownFields: "drop" as "drop" | "refuse",
    visitorLimit: 10,
    message: "",
  });
  const set = (patch: Partial<typeof draft>) => setDraft((d) => ({ ...d, ...patch }));

  function create() {
    setError(null);
    startTransition(async () => {
      const fields = lines(draft.fields);
      const result = await createFormKeyAction({
        sheetId,
        name: draft.name,
        form: {
          tab: draft.tab,
          origins: lines(draft.origins),
          redirects: lines(draft.redirects),
          fields: fields.length ? fields : null,
          unknownFields: draft.unknownFields,
          visitorLimit: draft.visitorLimit,
          message: draft.message || null,
        },
      });
      if (!result.ok) return setError(result.error);
      const tab = tabs.find((t) => t.name === result.data.key.settings.tab);
      setCreated({
        value: result.data.value,
        snippet: formSnippet({
          action: `${baseUrl}/f/${result.data.value}`,
          columns: tab?.columns ?? [],
          fields: result.data.key.settings.fields,
        }),
      });
      router.refresh();
    });
  }

  function revoke(keyId: string) {
    if (!window.confirm("Revoke this form key? Pages that hold its form can no longer send it.")) return;
    startTransition(async () => {
      const result = await revokeKeyAction({ keyId });
      if (!result.ok) return setError(result.error);
      router.refresh();
    });
  }

  return (
    <section
      className="space-y-4 rounded-lg border border-slate-200 p-4 sm:p-6 dark:border-slate-800"
      data-testid="forms"
    >
      <h2 className="text-lg font-semibold">Forms</h2>
      <p className="text-sm text-slate-600 dark:text-slate-400">
        A form key lets a plain HTML form on your site add rows to one tab, with JavaScript off and no secret in the
        page. It only appends: it never reads, changes or deletes rows. Each submission written counts as one request of
        your plan. See{" "}
        <Link className="underline" href="/docs/reference/forms">
          Forms
        </Link>
        .
      </p>
      {keys.length > 0 && (
        <ul className="divide-y divide-slate-200 text-sm dark:divide-slate-800">
          {keys.map((k) => (
            <li
              key={k.id}
              className="flex flex-col gap-1 py-2 sm:flex-row sm:items-center sm:justify-between"
              data-testid="form-key"
            >
              <span className="min-w-0 [overflow-wrap:anywhere]">
                <strong>{k.name}</strong> · <code>{k.displayPrefix}…</code> · tab {k.settings.tab} · from{" "}
                {k.settings.origins.join(", ")}
              </span>
              <span className="flex items-center gap-3 whitespace-nowrap">
                <span data-testid="form-counts">
                  {k.accepted.toLocaleString("en-US")} accepted · {k.refused.toLocaleString("en-US")} refused
                </span>
                {k.revokedAt ? (
                  <span className="text-slate-500 dark:text-slate-400">revoked</span>
                ) : (
                  <button
                    type="button"
                    className="text-red-700 underline dark:text-red-400"
                    disabled={pending}
                    onClick={() => revoke(k.id)}
                  >
                    Revoke
                  </button>
                )}
              </span>
            </li>
          ))}
        </ul>
      )}
      {created && (
        <div
          role="status"
          className="space-y-2 rounded-md bg-emerald-50 p-3 text-sm text-emerald-950 dark:bg-emerald-950 dark:text-emerald-100"
          data-testid="form-snippet"
        >
          <p>
            Paste this form into your page. Its key (<code className="break-all">{created.value}</code>) is public by
            design, and shown only now.
          </p>
          <textarea
            readOnly
            className={`${field} h-56 font-mono text-xs`}
            value={created.snippet}
            aria-label="HTML form"
          />
          <button
            type="button"
            className="underline"
            onClick={() => void navigator.clipboard.writeText(created.snippet)}
          >
            Copy the HTML
          </button>
        </div>
      )}
      {tabs.length > 0 && (
        <form
          className="grid gap-3 sm:grid-cols-2"
          onSubmit={(e) => {
            e.preventDefault();
            if (!pending) create();
          }}
        >
          <label className="text-sm">
            Name
            <input
              className={field}
              value={draft.name}
              onChange={(e) => set({ name: e.target.value })}
              placeholder="Newsletter signup"
            />
          </label>
          <label className="text-sm">
            Tab
            <select className={field} value={draft.tab} onChange={(e) => set({ tab: e.target.value })}>
              {tabs.map((t) => (
                <option key={t.name}>{t.name}</option>
              ))}
            </select>
          </label>
          <label className="text-sm">
            Allowed origins (one a line)
            <textarea
              className={field}
              value={draft.origins}
              onChange={(e) => set({ origins: e.target.value })}
              placeholder="https://www.example.com"
            />
          </label>
          <label className="text-sm">
            Thank-you addresses (the first is the default; none: a hosted page)
            <textarea
              className={field}
              value={draft.redirects}
              onChange={(e) => set({ redirects: e.target.value })}
              placeholder="https://www.example.com/thanks"
            />
          </label>
          <label className="text-sm">
            Accepted fields (empty: every column)
            <input
              className={field}
              value={draft.fields}
              onChange={(e) => set({ fields: e.target.value })}
              placeholder="name, email"
            />
          </label>
          <label className="text-sm">
            Other fields
            <select
              className={field}
              value={draft.unknownFields}
              onChange={(e) => set({ unknownFields: e.target.value as "drop" | "refuse" })}
            >
              <option value="drop">Dropped</option>
              <option value="refuse">Refused (the submission fails)</option>
            </select>
          </label>
          <label className="text-sm">
            Submissions per minute per visitor
            <input
              type="number"
              min={1}
              className={field}
              value={draft.visitorLimit}
              onChange={(e) => set({ visitorLimit: Number(e.target.value) })}
            />
          </label>
          <label className="text-sm">
            Thank-you message (hosted page)
            <input
              className={field}
              value={draft.message}
              onChange={(e) => set({ message: e.target.value })}
              placeholder="Thanks, we will be in touch."
            />
          </label>
          {error && (
            <p role="alert" className="text-sm text-red-700 sm:col-span-2 dark:text-red-400">
              {error}
            </p>
          )}
          <div className="sm:col-span-2">
            <button
              type="submit"
              disabled={pending}
              className="rounded-md bg-slate-900 px-4 py-2 text-sm font-medium text-white disabled:opacity-50 dark:bg-slate-100 dark:text-slate-900"
            >
              Make a form key
            </button>
          </div>
        </form>
      )}
    </section>
  );
}
