"use client";

import { BROWSER_SHARE } from "@/lib/limits/browser-share";
import type { BrowserKeySettings } from "@/lib/keys/browser";

/** A tab of the sheet and its column names, for choosing what a browser key may read. */
export interface TabColumns {
  name: string;
  columns: string[];
}

/** The form's state: origins as typed (one per line), tabs and columns as chosen (empty: all). */
export interface BrowserKeyDraft {
  origins: string;
  tabs: string[];
  columns: string[];
  visitorLimit: string;
}

export const emptyDraft = (visitorLimit: number): BrowserKeyDraft => ({
  origins: "",
  tabs: [],
  columns: [],
  visitorLimit: String(visitorLimit),
});

export function draftOf(settings: BrowserKeySettings): BrowserKeyDraft {
  return {
    origins: settings.origins.join("\n"),
    tabs: settings.tabs ?? [],
    columns: settings.columns ?? [],
    visitorLimit: String(settings.visitorLimit),
  };
}

/** What the server action receives; the server checks and normalises it. */
export function draftInput(draft: BrowserKeyDraft) {
  return {
    // Origins hold no spaces or commas: any of them separates two.
    origins: draft.origins.split(/[\s,]+/).filter(Boolean),
    tabs: draft.tabs.length ? draft.tabs : null,
    columns: draft.columns.length ? draft.columns : null,
    visitorLimit: Number(draft.visitorLimit),
  };
}

function Choices({
  label,
  all,
  value,
  onChange,
  testId,
}: {
  label: string;
  all: string[];
  value: string[];
  onChange: (v: string[]) => void;
  testId: string;
}) {
  if (!all.length) return null;
  return (
    <fieldset className="space-y-1">
      <legend className="text-sm font-medium">{label}</legend>
      <div className="flex flex-wrap gap-x-4 gap-y-1">
        {all.map((name) => (
          <label key={name} className="flex items-center gap-1.5 text-sm">
            <input
              type="checkbox"
              data-testid={`${testId}-${name}`}
              checked={value.includes(name)}
              onChange={(e) =>
                onChange(
                  e.target.checked
                    ? all.filter((x) => x === name || value.includes(x))
                    : value.filter((x) => x !== name),
                )
              }
            />
            <span className="font-mono text-xs">{name}</span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}

/** Origins, tabs, columns and the per-visitor limit of a browser key. */
export function BrowserKeyFields({
  draft,
  onChange,
  tabs,
  idPrefix,
}: {
  draft: BrowserKeyDraft;
  onChange: (d: BrowserKeyDraft) => void;
  tabs: TabColumns[];
  idPrefix: string;
}) {
  const chosenTabs = draft.tabs.length ? tabs.filter((t) => draft.tabs.includes(t.name)) : tabs;
  const columns = [...new Set(chosenTabs.flatMap((t) => t.columns))].filter((c) => c !== "id");
  return (
    <div className="space-y-3 rounded-md bg-slate-50 p-3 dark:bg-slate-900" data-testid={`${idPrefix}-browser`}>
      <label className="block space-y-1">
        <span className="text-sm font-medium">Allowed origins (one per line)</span>
        <textarea
          value={draft.origins}
          onChange={(e) => onChange({ ...draft, origins: e.target.value })}
          rows={2}
          data-testid={`${idPrefix}-origins`}
          placeholder={"https://www.example.com\nhttps://*.example.com"}
          className="block w-full rounded-md border border-slate-300 bg-white px-3 py-2 font-mono text-sm dark:border-slate-700 dark:bg-slate-950"
        />
        <span className="block text-xs text-slate-500 dark:text-slate-400">
          Exact origins (scheme://host[:port]); <code>https://*.example.com</code> covers every subdomain of
          example.com. Requests from other origins, and from servers that send none, get 403.
        </span>
      </label>
      <Choices
        label="Tabs it can read (none ticked: all)"
        all={tabs.map((t) => t.name)}
        value={draft.tabs}
        testId={`${idPrefix}-tab`}
        onChange={(v) => onChange({ ...draft, tabs: v })}
      />
      <Choices
        label="Columns it can read (none ticked: all; id always)"
        all={columns}
        value={draft.columns.filter((c) => columns.includes(c))}
        testId={`${idPrefix}-column`}
        onChange={(v) => onChange({ ...draft, columns: v })}
      />
      <label className="flex flex-wrap items-center gap-2 text-sm">
        <span className="font-medium">Requests per minute per visitor</span>
        <input
          type="number"
          min={1}
          inputMode="numeric"
          value={draft.visitorLimit}
          onChange={(e) => onChange({ ...draft, visitorLimit: e.target.value })}
          data-testid={`${idPrefix}-visitor-limit`}
          className="w-24 rounded-md border border-slate-300 bg-white px-2 py-1 text-sm dark:border-slate-700 dark:bg-slate-950"
        />
        <span className="text-xs text-slate-500 dark:text-slate-400">
          on top of your plan&apos;s limits, per visitor address; browser keys together use at most{" "}
          {BROWSER_SHARE * 100}% of each plan limit, the rest stays for your secret keys
        </span>
      </label>
    </div>
  );
}
