"use client";
// A sheet's keys: a row for each existing key, and the form that creates the next one.
import { useRouter } from "next/navigation";
import { useRef, useState, useTransition } from "react";
import { useModalDialog } from "@/app/components/use-modal-dialog";
import { useUnsavedChanges } from "@/app/components/use-unsaved-changes";
import type { KeySummary } from "@/lib/keys/manage";
import { PERMISSION_LABELS, type Permission } from "@/lib/keys/permissions";
import { LEAVE_UNCOPIED, NewKeyNotice } from "../new-key-notice";
import type { QuickStartTarget } from "../quick-start";
import { QuotaLine, type QuotaSnapshot } from "../quota-line";
import { createKeyAction } from "./actions";
import { BrowserKeyFields, draftInput, emptyDraft, type TabColumns } from "./browser-key-fields";
import { KeyRow } from "./key-row";
import { PermissionBoxes } from "./permission-boxes";

const DEFAULT_PERMISSIONS: Permission[] = ["read"];
const CLOSE_UNCOPIED = "Your new key is shown only this once. Close it?";

function CreateKeyForm({
  sheetId,
  target,
  quota,
  tabs,
  visitorLimit,
  takenNames,
}: {
  sheetId: string;
  target: QuickStartTarget;
  quota: QuotaSnapshot;
  tabs: TabColumns[];
  visitorLimit: number;
  takenNames: string[];
}) {
  const router = useRouter();
  const [name, setName] = useState("");
  const [kind, setKind] = useState<"secret" | "publishable">("secret");
  const [permissions, setPermissions] = useState<Permission[]>(DEFAULT_PERMISSIONS);
  const [refuseFormulas, setRefuseFormulas] = useState(false);
  const [draft, setDraft] = useState(() => emptyDraft(visitorLimit));
  const [error, setError] = useState<string | null>(null);
  // A refusal of the name itself: it no longer holds once the name is edited, so it goes then.
  const [nameProblem, setNameProblem] = useState<string | null>(null);
  const shown = nameProblem ?? error;
  const [created, setCreated] = useState<{
    value: string;
    name: string;
    permissions: Permission[];
    browser: boolean;
  } | null>(null);
  const [pending, startTransition] = useTransition();
  const browser = kind === "publishable";
  // Anything typed or chosen that a created key would keep; creating resets the form, and so ends it.
  const started =
    name.trim() !== "" ||
    (browser
      ? JSON.stringify(draftInput(draft)) !== JSON.stringify(draftInput(emptyDraft(visitorLimit)))
      : permissions.join() !== DEFAULT_PERMISSIONS.join() || refuseFormulas);
  // The new key's value is shown once: until it is copied, leaving asks as unsaved edits do.
  const [copied, setCopied] = useState(false);
  const uncopied = created !== null && !copied;
  useUnsavedChanges(started || uncopied, uncopied ? LEAVE_UNCOPIED : undefined);
  const copyButton = useRef<HTMLButtonElement>(null);
  const dialog = useRef<HTMLDivElement>(null);
  const createButton = useRef<HTMLButtonElement>(null);
  const nameInput = useRef<HTMLInputElement>(null);
  // Closing the dialog loses the key: Escape, or "I have copied it" before any copy was made, asks first.
  const closeDialog = () => {
    if (copied || window.confirm(CLOSE_UNCOPIED)) setCreated(null);
  };
  useModalDialog(created !== null, dialog, copyButton, closeDialog, createButton);

  /** Says what is wrong with the name, at the name: none, or one a live key of this sheet has. */
  function refuseName(): boolean {
    const trimmed = name.trim();
    const problem =
      trimmed === ""
        ? "Give the key a name."
        : takenNames.includes(trimmed)
          ? `This sheet already has a key named “${trimmed}”: give this one another name, so the two can be told apart.`
          : null;
    if (!problem) return false;
    setNameProblem(problem);
    nameInput.current?.focus();
    return true;
  }

  function submit() {
    setError(null);
    setNameProblem(null);
    if (refuseName()) return;
    startTransition(async () => {
      const chosen: Permission[] = browser ? ["read"] : permissions;
      const refuses = !browser && chosen.includes("write") && refuseFormulas;
      const result = await createKeyAction({
        sheetId,
        name,
        permissions: chosen,
        ...(browser ? { browser: draftInput(draft) } : {}),
        ...(refuses ? { refuseFormulas: true } : {}),
      });
      if (!result.ok) return setError(result.error);
      // Nothing said about an earlier attempt stays beside the key just made.
      setError(null);
      setNameProblem(null);
      setCopied(false);
      setCreated({ value: result.data.value, name: name.trim(), permissions: chosen, browser });
      // The next key starts from the defaults, not from this key's name and settings.
      setName("");
      setKind("secret");
      setPermissions(DEFAULT_PERMISSIONS);
      setRefuseFormulas(false);
      setDraft(emptyDraft(visitorLimit));
      router.refresh();
    });
  }

  return (
    // A form, so a keyboard's Enter or Go creates the key.
    <form
      onSubmit={(e) => {
        e.preventDefault();
        if (!pending) submit();
      }}
      className="space-y-3 border-t border-slate-200 p-4 dark:border-slate-800"
    >
      <h3 className="font-medium">New key</h3>
      <fieldset className="flex flex-col gap-2 text-sm sm:flex-row sm:gap-6" data-testid="key-kind-choice">
        <legend className="sr-only">Kind of key</legend>
        <label className="flex items-start gap-2">
          <input
            type="radio"
            name="key-kind"
            checked={!browser}
            onChange={() => setKind("secret")}
            data-testid="kind-secret"
            className="mt-1"
          />
          <span>
            <span className="font-medium">Secret</span>{" "}
            <span className="text-slate-500 dark:text-slate-400">for servers and scripts; any permissions</span>
          </span>
        </label>
        <label className="flex items-start gap-2">
          <input
            type="radio"
            name="key-kind"
            checked={browser}
            onChange={() => setKind("publishable")}
            data-testid="kind-browser"
            className="mt-1"
          />
          <span>
            <span className="font-medium">Browser (publishable)</span>{" "}
            <span className="text-slate-500 dark:text-slate-400">
              safe in a web page: reads only, from the origins you list
            </span>
          </span>
        </label>
      </fieldset>
      {browser && <BrowserKeyFields draft={draft} onChange={setDraft} tabs={tabs} idPrefix="new-key" />}
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center">
        <input
          ref={nameInput}
          value={name}
          onChange={(e) => {
            setName(e.target.value);
            setNameProblem(null);
          }}
          aria-label="Key name"
          aria-invalid={nameProblem !== null || (error !== null && /name/.test(error))}
          aria-describedby={shown ? "key-error" : undefined}
          placeholder={browser ? "Name, e.g. Shop website" : "Name, e.g. Production server"}
          data-testid="key-name"
          className="flex-1 rounded-md border border-slate-300 bg-transparent px-3 py-2 text-sm dark:border-slate-700"
        />
        {!browser && <PermissionBoxes value={permissions} onChange={setPermissions} idPrefix="new-key" />}
        <button
          type="submit"
          ref={createButton}
          disabled={pending}
          data-testid="create-key"
          className="rounded-md bg-emerald-700 px-4 py-2 text-sm font-medium text-white hover:bg-emerald-800 disabled:opacity-60"
        >
          {pending ? "Creating…" : "Create key"}
        </button>
      </div>
      {!browser && permissions.includes("write") && (
        <label className="flex items-start gap-2 text-sm">
          <input
            type="checkbox"
            checked={refuseFormulas}
            onChange={(e) => setRefuseFormulas(e.target.checked)}
            data-testid="new-key-refuse-formulas"
            className="mt-1"
          />
          <span>
            <span className="font-medium">Refuse formulas</span>{" "}
            <span className="text-slate-500 dark:text-slate-400">
              while this sheet parses written values as typed, a write from this key with a value Google would enter as
              a formula (starting with <code>=</code>, or <code>+</code> or <code>-</code> before a letter) is refused
              and nothing is written; a value starting with an apostrophe is written as text. Fixed once the key is
              created.
            </span>
          </span>
        </label>
      )}
      {shown && (
        <p role="alert" id="key-error" data-testid="key-error" className="text-sm text-red-700 dark:text-red-300">
          {shown}
        </p>
      )}
      {created && (
        <div
          ref={dialog}
          role="dialog"
          aria-modal="true"
          aria-label="Your new API key"
          data-testid="key-dialog"
          className="fixed inset-0 z-10 flex items-center justify-center bg-black/40 p-2 sm:p-4"
        >
          {/* Scrolls inside itself on a short screen, so nothing of the key or the example is cut off. */}
          <div className="max-h-full w-full max-w-2xl space-y-4 overflow-y-auto rounded-lg bg-white p-4 shadow-xl sm:p-6 dark:bg-slate-900">
            <NewKeyNotice
              value={created.value}
              name={created.name}
              browser={created.browser}
              target={created.permissions.includes("read") ? target : undefined}
              copyRef={copyButton}
              onCopied={() => setCopied(true)}
            />
            <p className="text-sm text-slate-600 dark:text-slate-400">
              Permissions: {created.permissions.map((p) => PERMISSION_LABELS[p]).join(", ")}.
            </p>
            <QuotaLine quota={quota} />
            <button
              type="button"
              data-testid="close-key-dialog"
              onClick={closeDialog}
              className="rounded-md border border-slate-300 px-4 py-2 text-sm dark:border-slate-700"
            >
              I have copied it
            </button>
          </div>
        </div>
      )}
    </form>
  );
}

/** `tabs`: the sheet's tabs and columns, to choose what a browser key reads; `visitorLimit`: the default per-visitor limit. */
export function KeysPanel({
  sheetId,
  keys,
  target,
  quota,
  tabs,
  visitorLimit,
}: {
  sheetId: string;
  keys: KeySummary[];
  target: QuickStartTarget;
  quota: QuotaSnapshot;
  tabs: TabColumns[];
  visitorLimit: number;
}) {
  return (
    <section
      id="api-keys"
      className="scroll-mt-4 rounded-lg border border-slate-200 dark:border-slate-800"
      data-testid="keys"
    >
      <div className="border-b border-slate-200 px-4 py-3 dark:border-slate-800">
        <h2 className="font-semibold">API keys</h2>
        <p className="text-xs text-slate-500 dark:text-slate-400">
          Send a key in the X-API-Key header. Values are shown once, at creation. Secret keys (<code>shk_</code>) stay
          on servers; browser keys (<code>shp_</code>) may ship in a web page.
        </p>
      </div>
      {keys.length === 0 ? (
        <p className="p-4 text-sm text-slate-500 dark:text-slate-400">No keys yet.</p>
      ) : (
        <ul className="divide-y divide-slate-200 dark:divide-slate-800">
          {keys.map((k) => (
            <KeyRow key={k.id} apiKey={k} tabs={tabs} />
          ))}
        </ul>
      )}
      <CreateKeyForm
        sheetId={sheetId}
        target={target}
        quota={quota}
        tabs={tabs}
        visitorLimit={visitorLimit}
        takenNames={keys.filter((k) => !k.revokedAt).map((k) => k.name)}
      />
    </section>
  );
}
