"use client";

import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import type { KeySummary } from "@/lib/keys/manage";
import { PERMISSION_LABELS, PERMISSIONS, type Permission } from "@/lib/keys/permissions";
import { NewKeyNotice } from "../new-key-notice";
import type { QuickStartTarget } from "../quick-start";
import { QuotaLine, type QuotaSnapshot } from "../quota-line";
import { createKeyAction, revokeKeyAction, updateBrowserKeyAction, updateKeyFormulasAction, updateKeyPermissionsAction } from "./actions";
import { BrowserKeyFields, draftInput, draftOf, emptyDraft, type BrowserKeyDraft, type TabColumns } from "./browser-key-fields";

const when = (iso: string | null) => (iso ? `${iso.slice(0, 16).replace("T", " ")} UTC` : "never");

function PermissionBoxes({ value, onChange, disabled, idPrefix }: { value: Permission[]; onChange: (p: Permission[]) => void; disabled?: boolean; idPrefix: string }) {
  return (
    <div className="flex flex-wrap gap-3">
      {PERMISSIONS.map((p) => (
        <label key={p} className="flex items-center gap-1.5 text-sm">
          <input
            type="checkbox"
            id={`${idPrefix}-${p}`}
            data-testid={`${idPrefix}-${p}`}
            checked={value.includes(p)}
            disabled={disabled}
            onChange={(e) => onChange(e.target.checked ? PERMISSIONS.filter((x) => x === p || value.includes(x)) : value.filter((x) => x !== p))}
          />
          {PERMISSION_LABELS[p]}
        </label>
      ))}
    </div>
  );
}

function KeyRow({ apiKey, tabs }: { apiKey: KeySummary; tabs: TabColumns[] }) {
  const router = useRouter();
  const [permissions, setPermissions] = useState(apiKey.permissions);
  const [editing, setEditing] = useState<BrowserKeyDraft | null>(null);
  const [readFormulas, setReadFormulas] = useState(apiKey.readFormulas);
  const [confirming, setConfirming] = useState(false);
  const [message, setMessage] = useState<string | null>(null);
  const [pending, startTransition] = useTransition();
  const revoked = apiKey.revokedAt !== null;
  const dirty = permissions.join() !== apiKey.permissions.join();

  const run = (action: () => Promise<{ ok: boolean; error?: string }>, done: string) =>
    startTransition(async () => {
      const result = await action();
      setMessage(result.ok ? done : (result.error ?? "Failed."));
      setConfirming(false);
      if (result.ok) setEditing(null);
      router.refresh();
    });

  return (
    <li className="space-y-3 p-4" data-testid="key-row" data-key-name={apiKey.name}>
      <div className="flex flex-col gap-1 sm:flex-row sm:items-center sm:justify-between">
        <div>
          <span className="font-medium">{apiKey.name}</span>{" "}
          <code className="font-mono text-xs text-slate-500">{apiKey.displayPrefix}…</code>{" "}
          <span data-testid="key-kind" className={`rounded px-2 py-0.5 text-xs ${apiKey.browser ? "bg-sky-100 text-sky-900 dark:bg-sky-950 dark:text-sky-200" : "bg-slate-100 text-slate-700 dark:bg-slate-800 dark:text-slate-300"}`}>
            {apiKey.browser ? "Browser" : "Secret"}
          </span>
          {revoked && <span className="ml-2 rounded bg-red-100 px-2 py-0.5 text-xs text-red-800 dark:bg-red-950 dark:text-red-200" data-testid="key-revoked">revoked</span>}
        </div>
        <div className="text-xs text-slate-500">
          created {when(apiKey.createdAt)} · last used <span data-testid="key-last-used">{when(apiKey.lastUsedAt)}</span>
        </div>
      </div>
      {apiKey.browser && (
        <div className="space-y-1 text-sm text-slate-600 dark:text-slate-400" data-testid="key-browser">
          <p className="break-words">Origins: <span className="font-mono text-xs" data-testid="key-origins">{apiKey.browser.origins.join(", ")}</span></p>
          <p className="break-words">
            Tabs: {apiKey.browser.tabs?.join(", ") ?? "all"} · Columns: {apiKey.browser.columns ? ["id", ...apiKey.browser.columns].join(", ") : "all"} ·{" "}
            {apiKey.browser.visitorLimit} requests/min per visitor
          </p>
        </div>
      )}
      {editing && (
        <div className="space-y-2">
          <BrowserKeyFields draft={editing} onChange={setEditing} tabs={tabs} idPrefix={`edit-${apiKey.id}`} />
          <div className="flex gap-2">
            <button type="button" data-testid="save-browser" disabled={pending}
              onClick={() => run(() => updateBrowserKeyAction({ keyId: apiKey.id, browser: draftInput(editing) }), "Browser key settings saved.")}
              className="rounded-md bg-emerald-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-emerald-700 disabled:opacity-60">
              {pending ? "Saving…" : "Save settings"}
            </button>
            <button type="button" onClick={() => setEditing(null)} className="rounded-md border border-slate-300 px-3 py-1.5 text-sm dark:border-slate-700">Cancel</button>
          </div>
        </div>
      )}
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <div className="flex flex-wrap items-center gap-3">
          {apiKey.browser ? (
            <p className="text-sm">Read only</p>
          ) : (
            <PermissionBoxes value={permissions} onChange={setPermissions} disabled={revoked || pending} idPrefix={`perm-${apiKey.id}`} />
          )}
          <label className="flex items-center gap-1.5 text-sm" title="?formulas=true returns the formula of each cell that has one">
            <input
              type="checkbox"
              data-testid="key-read-formulas"
              checked={readFormulas}
              disabled={revoked || pending}
              onChange={(e) => {
                const wanted = e.target.checked;
                setReadFormulas(wanted);
                run(async () => {
                  const result = await updateKeyFormulasAction({ keyId: apiKey.id, readFormulas: wanted });
                  if (!result.ok) setReadFormulas(!wanted);
                  return result;
                }, wanted ? "This key can read formulas." : "This key no longer reads formulas.");
              }}
            />
            Can read formulas
          </label>
        </div>
        {!revoked && (
          <div className="flex flex-wrap gap-2">
            {apiKey.browser && !editing && (
              <button type="button" data-testid="edit-browser" onClick={() => setEditing(draftOf(apiKey.browser!))}
                className="rounded-md border border-slate-300 px-3 py-1.5 text-sm hover:bg-slate-50 dark:border-slate-700 dark:hover:bg-slate-900">
                Edit origins
              </button>
            )}
            {dirty && (
              <span className="self-center text-xs text-amber-700 dark:text-amber-300" data-testid="permissions-unsaved">Not saved yet</span>
            )}
            {dirty && (
              <button type="button" data-testid="save-permissions" disabled={pending || permissions.length === 0}
                onClick={() => run(() => updateKeyPermissionsAction({ keyId: apiKey.id, permissions }), "Permissions saved.")}
                className="rounded-md bg-emerald-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-emerald-700 disabled:opacity-60">
                {pending ? "Saving…" : "Save"}
              </button>
            )}
            {confirming ? (
              <>
                <button type="button" data-testid="confirm-revoke" disabled={pending}
                  onClick={() => run(() => revokeKeyAction({ keyId: apiKey.id }), "Key revoked.")}
                  className="rounded-md bg-red-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-red-700 disabled:opacity-60">
                  {pending ? "Revoking…" : "Revoke permanently"}
                </button>
                <button type="button" data-testid="cancel-revoke" disabled={pending} onClick={() => setConfirming(false)}
                  className="rounded-md border border-slate-300 px-3 py-1.5 text-sm hover:bg-slate-50 dark:border-slate-700 dark:hover:bg-slate-900">
                  Cancel
                </button>
              </>
            ) : (
              <button type="button" data-testid="revoke" onClick={() => setConfirming(true)}
                className="rounded-md border border-red-300 px-3 py-1.5 text-sm text-red-700 hover:bg-red-50 dark:border-red-800 dark:text-red-300 dark:hover:bg-red-950">
                Revoke
              </button>
            )}
          </div>
        )}
      </div>
      {confirming && !pending && (
        <p role="alert" data-testid="revoke-warning" className="text-sm text-red-700 dark:text-red-300">
          Revoking is permanent: apps using this key get 401 from their next request. Cancel keeps it.
        </p>
      )}
      {message && <p role="status" className="text-sm text-slate-600 dark:text-slate-400">{message}</p>}
    </li>
  );
}

const DEFAULT_PERMISSIONS: Permission[] = ["read"];

function CreateKeyForm({ sheetId, target, quota, tabs, visitorLimit }: { sheetId: string; target: QuickStartTarget; quota: QuotaSnapshot; tabs: TabColumns[]; visitorLimit: number }) {
  const router = useRouter();
  const [name, setName] = useState("");
  const [kind, setKind] = useState<"secret" | "publishable">("secret");
  const [permissions, setPermissions] = useState<Permission[]>(DEFAULT_PERMISSIONS);
  const [draft, setDraft] = useState(() => emptyDraft(visitorLimit));
  const [error, setError] = useState<string | null>(null);
  const [created, setCreated] = useState<{ value: string; name: string; permissions: Permission[]; browser: boolean } | null>(null);
  const [pending, startTransition] = useTransition();
  const browser = kind === "publishable";

  function submit() {
    setError(null);
    startTransition(async () => {
      const chosen: Permission[] = browser ? ["read"] : permissions;
      const result = await createKeyAction({ sheetId, name, permissions: chosen, ...(browser ? { browser: draftInput(draft) } : {}) });
      if (!result.ok) return setError(result.error);
      setCreated({ value: result.data.value, name: name.trim(), permissions: chosen, browser });
      // The next key starts from the defaults, not from this key's name and settings.
      setName("");
      setPermissions(DEFAULT_PERMISSIONS);
      setDraft(emptyDraft(visitorLimit));
      router.refresh();
    });
  }

  return (
    <div className="space-y-3 border-t border-slate-200 p-4 dark:border-slate-800">
      <h3 className="font-medium">New key</h3>
      <fieldset className="flex flex-col gap-2 text-sm sm:flex-row sm:gap-6" data-testid="key-kind-choice">
        <legend className="sr-only">Kind of key</legend>
        <label className="flex items-start gap-2">
          <input type="radio" name="key-kind" checked={!browser} onChange={() => setKind("secret")} data-testid="kind-secret" className="mt-1" />
          <span><span className="font-medium">Secret</span> <span className="text-slate-500">for servers and scripts; any permissions</span></span>
        </label>
        <label className="flex items-start gap-2">
          <input type="radio" name="key-kind" checked={browser} onChange={() => setKind("publishable")} data-testid="kind-browser" className="mt-1" />
          <span><span className="font-medium">Browser (publishable)</span> <span className="text-slate-500">safe in a web page: reads only, from the origins you list</span></span>
        </label>
      </fieldset>
      {browser && <BrowserKeyFields draft={draft} onChange={setDraft} tabs={tabs} idPrefix="new-key" />}
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center">
        <input value={name} onChange={(e) => setName(e.target.value)} placeholder={browser ? "Name, e.g. Shop website" : "Name, e.g. Production server"} data-testid="key-name"
          className="flex-1 rounded-md border border-slate-300 bg-transparent px-3 py-2 text-sm dark:border-slate-700" />
        {!browser && <PermissionBoxes value={permissions} onChange={setPermissions} idPrefix="new-key" />}
        <button type="button" onClick={submit} disabled={pending} data-testid="create-key"
          className="rounded-md bg-emerald-600 px-4 py-2 text-sm font-medium text-white hover:bg-emerald-700 disabled:opacity-60">
          {pending ? "Creating…" : "Create key"}
        </button>
      </div>
      {error && <p role="alert" data-testid="key-error" className="text-sm text-red-700 dark:text-red-300">{error}</p>}
      {created && (
        <div role="dialog" aria-modal="true" aria-label="Your new API key" data-testid="key-dialog" className="fixed inset-0 z-10 flex items-center justify-center bg-black/40 p-2 sm:p-4">
          {/* Scrolls inside itself on a short screen, so nothing of the key or the example is cut off. */}
          <div className="max-h-full w-full max-w-2xl space-y-4 overflow-y-auto rounded-lg bg-white p-4 shadow-xl sm:p-6 dark:bg-slate-900">
            <NewKeyNotice value={created.value} name={created.name} browser={created.browser} target={created.permissions.includes("read") ? target : undefined} />
            <p className="text-sm text-slate-600 dark:text-slate-400">Permissions: {created.permissions.map((p) => PERMISSION_LABELS[p]).join(", ")}.</p>
            <QuotaLine quota={quota} />
            <button type="button" data-testid="close-key-dialog" onClick={() => setCreated(null)}
              className="rounded-md border border-slate-300 px-4 py-2 text-sm dark:border-slate-700">
              I have copied it
            </button>
          </div>
        </div>
      )}
    </div>
  );
}

/** `tabs`: the sheet's tabs and columns, to choose what a browser key reads; `visitorLimit`: the default per-visitor limit. */
export function KeysPanel({ sheetId, keys, target, quota, tabs, visitorLimit }: { sheetId: string; keys: KeySummary[]; target: QuickStartTarget; quota: QuotaSnapshot; tabs: TabColumns[]; visitorLimit: number }) {
  return (
    <section className="rounded-lg border border-slate-200 dark:border-slate-800" data-testid="keys">
      <div className="border-b border-slate-200 px-4 py-3 dark:border-slate-800">
        <h2 className="font-semibold">API keys</h2>
        <p className="text-xs text-slate-500">
          Send a key in the X-API-Key header. Values are shown once, at creation. Secret keys (<code>shk_</code>) stay on servers; browser keys
          (<code>shp_</code>) may ship in a web page.
        </p>
      </div>
      {keys.length === 0 ? (
        <p className="p-4 text-sm text-slate-500">No keys yet.</p>
      ) : (
        <ul className="divide-y divide-slate-200 dark:divide-slate-800">
          {keys.map((k) => <KeyRow key={k.id} apiKey={k} tabs={tabs} />)}
        </ul>
      )}
      <CreateKeyForm sheetId={sheetId} target={target} quota={quota} tabs={tabs} visitorLimit={visitorLimit} />
    </section>
  );
}
