"use client";
// One existing key: what it is, when it was used, its permissions and browser settings to edit,
// and revocation behind a confirmation.
import { useRouter } from "next/navigation";
import { useEffect, useRef, useState, useTransition } from "react";
import { LocalTime } from "@/app/components/local-time";
import { useUnsavedChanges } from "@/app/components/use-unsaved-changes";
import type { KeySummary } from "@/lib/keys/manage";
import {
  revokeKeyAction,
  updateBrowserKeyAction,
  updateKeyFormulasAction,
  updateKeyPermissionsAction,
} from "./actions";
import { BrowserKeyFields, draftInput, draftOf, type BrowserKeyDraft, type TabColumns } from "./browser-key-fields";
import { PermissionBoxes } from "./permission-boxes";

const when = (iso: string | null) => (iso ? <LocalTime at={iso} shape="minute" /> : "never");

export function KeyRow({ apiKey, tabs }: { apiKey: KeySummary; tabs: TabColumns[] }) {
  const router = useRouter();
  const [permissions, setPermissions] = useState(apiKey.permissions);
  const [editing, setEditing] = useState<BrowserKeyDraft | null>(null);
  const [readFormulas, setReadFormulas] = useState(apiKey.readFormulas);
  const [confirming, setConfirming] = useState(false);
  const [message, setMessage] = useState<string | null>(null);
  const [pending, startTransition] = useTransition();
  const revoked = apiKey.revokedAt !== null;
  // What the server holds: what a save just stored, until the refreshed props (a new array) bring
  // it. Without this the page would still call the change unsaved, and ask before leaving, until then.
  const [saved, setSaved] = useState({ over: apiKey.permissions, permissions: apiKey.permissions });
  const stored = saved.over === apiKey.permissions ? saved.permissions : apiKey.permissions;
  const dirty = permissions.join() !== stored.join();
  // Compared as the server would receive them, so a stray blank line in the origins is no change.
  const browserDirty =
    editing !== null &&
    apiKey.browser !== null &&
    JSON.stringify(draftInput(editing)) !== JSON.stringify(draftInput(draftOf(apiKey.browser)));
  // A revoked key has nothing left to save.
  useUnsavedChanges(!revoked && (dirty || browserDirty));

  // The button an action was started from is gone once it is done (saved, revoked): focus goes to
  // what the action says instead of falling back to the page.
  const said = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    if (message) said.current?.focus({ preventScroll: true });
  }, [message]);

  /** Runs a change; `closeEditor` when it makes the browser settings being edited moot (saved, or the key revoked). */
  const run = (action: () => Promise<{ ok: boolean; error?: string }>, done: string, closeEditor = false) =>
    startTransition(async () => {
      const result = await action();
      setMessage(result.ok ? done : (result.error ?? "Failed."));
      setConfirming(false);
      if (result.ok && closeEditor) setEditing(null);
      router.refresh();
    });

  return (
    <li className="space-y-3 p-4" data-testid="key-row" data-key-name={apiKey.name}>
      <div className="flex flex-col gap-1 sm:flex-row sm:items-center sm:justify-between">
        <div>
          <span className="font-medium">{apiKey.name}</span>{" "}
          <code className="font-mono text-xs text-slate-500 dark:text-slate-400">{apiKey.displayPrefix}…</code>{" "}
          <span
            data-testid="key-kind"
            className={`rounded px-2 py-0.5 text-xs ${apiKey.browser ? "bg-sky-100 text-sky-900 dark:bg-sky-950 dark:text-sky-200" : "bg-slate-100 text-slate-700 dark:bg-slate-800 dark:text-slate-300"}`}
          >
            {apiKey.browser ? "Browser" : "Secret"}
          </span>
          {revoked && (
            <span
              className="ml-2 rounded bg-red-100 px-2 py-0.5 text-xs text-red-800 dark:bg-red-950 dark:text-red-200"
              data-testid="key-revoked"
            >
              revoked
            </span>
          )}
        </div>
        <div className="text-xs text-slate-500 dark:text-slate-400">
          created {when(apiKey.createdAt)} · last used{" "}
          <span data-testid="key-last-used">{when(apiKey.lastUsedAt)}</span>
        </div>
      </div>
      {apiKey.browser && (
        <div className="space-y-1 text-sm text-slate-600 dark:text-slate-400" data-testid="key-browser">
          <p className="break-words">
            Origins:{" "}
            <span className="font-mono text-xs" data-testid="key-origins">
              {apiKey.browser.origins.join(", ")}
            </span>
          </p>
          <p className="break-words">
            Tabs: {apiKey.browser.tabs?.join(", ") ?? "all"} · Columns:{" "}
            {apiKey.browser.columns ? ["id", ...apiKey.browser.columns].join(", ") : "all"} ·{" "}
            {apiKey.browser.visitorLimit} requests/min per visitor
          </p>
        </div>
      )}
      {editing && (
        <div className="space-y-2">
          <BrowserKeyFields draft={editing} onChange={setEditing} tabs={tabs} idPrefix={`edit-${apiKey.id}`} />
          <div className="flex gap-2">
            <button
              type="button"
              data-testid="save-browser"
              disabled={pending}
              onClick={() =>
                run(
                  () => updateBrowserKeyAction({ keyId: apiKey.id, browser: draftInput(editing) }),
                  "Browser key settings saved.",
                  true,
                )
              }
              className="rounded-md bg-emerald-700 px-3 py-1.5 text-sm font-medium text-white hover:bg-emerald-800 disabled:opacity-60"
            >
              {pending ? "Saving…" : "Save settings"}
            </button>
            <button
              type="button"
              onClick={() => setEditing(null)}
              className="rounded-md border border-slate-300 px-3 py-1.5 text-sm dark:border-slate-700"
            >
              Cancel
            </button>
          </div>
        </div>
      )}
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <div className="flex flex-wrap items-center gap-3">
          {apiKey.browser ? (
            <p className="text-sm">Read only</p>
          ) : (
            <PermissionBoxes
              value={permissions}
              onChange={setPermissions}
              disabled={revoked || pending}
              idPrefix={`perm-${apiKey.id}`}
            />
          )}
          <label
            className="flex items-center gap-1.5 text-sm"
            title="?formulas=true returns the formula of each cell that has one"
          >
            <input
              type="checkbox"
              data-testid="key-read-formulas"
              checked={readFormulas}
              disabled={revoked || pending}
              onChange={(e) => {
                const wanted = e.target.checked;
                setReadFormulas(wanted);
                run(
                  async () => {
                    const result = await updateKeyFormulasAction({ keyId: apiKey.id, readFormulas: wanted });
                    if (!result.ok) setReadFormulas(!wanted);
                    return result;
                  },
                  wanted ? "This key can read formulas." : "This key no longer reads formulas.",
                );
              }}
            />
            Can read formulas
          </label>
          {apiKey.refuseFormulas && (
            <span
              className="text-sm text-slate-600 dark:text-slate-400"
              data-testid="key-refuses-formulas"
              title="Set at creation: writes from this key holding a formula are refused while the sheet parses written values as typed"
            >
              Refuses formulas
            </span>
          )}
        </div>
        {!revoked && (
          <div className="flex flex-wrap gap-2">
            {apiKey.browser && !editing && (
              <button
                type="button"
                data-testid="edit-browser"
                onClick={() => setEditing(draftOf(apiKey.browser!))}
                className="rounded-md border border-slate-300 px-3 py-1.5 text-sm hover:bg-slate-50 dark:border-slate-700 dark:hover:bg-slate-900"
              >
                Edit origins
              </button>
            )}
            {dirty && (
              <span
                className="self-center text-xs text-amber-700 dark:text-amber-300"
                data-testid="permissions-unsaved"
              >
                Not saved yet
              </span>
            )}
            {dirty && (
              <button
                type="button"
                data-testid="save-permissions"
                disabled={pending || permissions.length === 0}
                aria-label={`Save the permissions of ${apiKey.name}`}
                onClick={() =>
                  run(async () => {
                    const result = await updateKeyPermissionsAction({ keyId: apiKey.id, permissions });
                    if (result.ok) setSaved({ over: apiKey.permissions, permissions });
                    return result;
                  }, "Permissions saved.")
                }
                className="rounded-md bg-emerald-700 px-3 py-1.5 text-sm font-medium text-white hover:bg-emerald-800 disabled:opacity-60"
              >
                {pending ? "Saving…" : "Save"}
              </button>
            )}
            {confirming ? (
              <>
                <button
                  type="button"
                  data-testid="confirm-revoke"
                  disabled={pending}
                  onClick={() => run(() => revokeKeyAction({ keyId: apiKey.id }), "Key revoked.", true)}
                  className="rounded-md bg-red-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-red-700 disabled:opacity-60"
                >
                  {pending ? "Revoking…" : "Revoke permanently"}
                </button>
                <button
                  type="button"
                  data-testid="cancel-revoke"
                  disabled={pending}
                  onClick={() => setConfirming(false)}
                  className="rounded-md border border-slate-300 px-3 py-1.5 text-sm hover:bg-slate-50 dark:border-slate-700 dark:hover:bg-slate-900"
                >
                  Cancel
                </button>
              </>
            ) : (
              <button
                type="button"
                data-testid="revoke"
                onClick={() => setConfirming(true)}
                aria-label={`Revoke ${apiKey.name}`}
                className="min-h-11 rounded-md border border-red-300 px-3 py-1.5 text-sm sm:min-h-0 text-red-700 hover:bg-red-50 dark:border-red-800 dark:text-red-300 dark:hover:bg-red-950"
              >
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
      {message && (
        <p ref={said} tabIndex={-1} role="status" className="text-sm text-slate-600 outline-none dark:text-slate-400">
          {message}
        </p>
      )}
    </li>
  );
}
