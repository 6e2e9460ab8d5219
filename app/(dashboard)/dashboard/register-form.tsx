"use client";

import Link from "next/link";
import { useEffect, useRef, useState, useTransition } from "react";
import { sheetIdIn } from "@/lib/sheets/registration/sheet-url";
import { pickerSessionAction, registerSheetAction } from "./actions";
import { pickSpreadsheet } from "./google-picker";
import { CHOOSE } from "./choose-label";
import { LEAVE_UNCOPIED, NewKeyNotice } from "./new-key-notice";
import { WritableThroughGrant } from "./writable-through-grant";

type Registered = {
  sheet_id: string;
  sheet_name: string;
  created: boolean;
  writable: boolean;
  proof: string;
  docs_url: string;
  api_key: string | null;
  tabs: { name: string }[];
  base_url: string;
};
type Failure = { message: string; reason?: string; sheetId?: string };
/** Reasons answered by connecting Google (first time, or again after Google stopped accepting the grant). */
const NEEDS_GOOGLE = ["no_google_grant", "google_grant_revoked"];
type Via = "service" | "grant";

export interface RegisterFormProps {
  /** The Google account of the account's grant, when it has a usable one. */
  googleEmail: string | null;
  /** A sheet to choose in the Picker (the private flow sends people here when Google has not confirmed it yet). */
  pickId?: string;
  via?: Via;
  /** Open the Picker at once: the person just connected Google to choose a sheet. */
  autoOpen?: boolean;
  /** Google is emulators/google: its Drive can make a sample spreadsheet, as there is no Google Sheets. */
  googleEmulated?: boolean;
  /** What Google will ask for, shown before connecting (server-rendered: text ships no JavaScript). */
  scopes: React.ReactNode;
  /** The notes under the form (server-rendered, likewise). */
  notes: React.ReactNode;
}

const primary =
  "inline-flex items-center justify-center gap-2 rounded-md bg-emerald-700 px-4 py-2.5 text-sm font-medium text-white hover:bg-emerald-800 disabled:opacity-60";
const secondary =
  "inline-flex items-center justify-center rounded-md border border-slate-300 px-4 py-2 text-sm font-medium hover:bg-slate-50 disabled:opacity-60 dark:border-slate-700 dark:hover:bg-slate-900";

export function RegisterForm({
  googleEmail,
  pickId,
  via = "service",
  autoOpen,
  googleEmulated,
  scopes,
  notes,
}: RegisterFormProps) {
  const [pending, startTransition] = useTransition();
  const [busy, setBusy] = useState<"picker" | "address" | null>(null);
  const [address, setAddress] = useState("");
  const [failure, setFailure] = useState<Failure | null>(null);
  // The sheet waiting to be chosen in Google Drive: the private flow's, or one pasted that Google
  // has not confirmed yet. That is no failure: choosing it in Drive is the next step, on that file.
  const [awaitingPick, setAwaitingPick] = useState(pickId);
  // The Picker closed without a choice: where the sheet may be, since Google lists only what this account can open.
  const [nothingChosen, setNothingChosen] = useState(false);
  const [registered, setRegistered] = useState<Registered | null>(null);
  // Whether the one-time key shown under the form was copied: another registration replaces it.
  const [keyCopied, setKeyCopied] = useState(false);
  const opened = useRef(false);
  const section = useRef<HTMLElement>(null);
  const result = useRef<HTMLDivElement>(null);
  const failed = useRef<HTMLDivElement>(null);
  const prompt = useRef<HTMLDivElement>(null);
  const nothing = useRef<HTMLDivElement>(null);

  // The key, or why not, is below the form: bring it into view (on a phone the Picker leaves the
  // top in view).
  // Focus goes there too: the Picker's frame, which had it, is gone, and the button that opened it
  // is disabled while the registration runs, so focus would fall to the page's body.
  useEffect(() => {
    if (!registered) return;
    result.current?.scrollIntoView({ block: "start", behavior: "smooth" });
    result.current?.focus({ preventScroll: true });
  }, [registered]);
  useEffect(() => {
    if (nothingChosen) nothing.current?.focus({ preventScroll: true });
  }, [nothingChosen]);
  useEffect(() => {
    if (awaitingPick && awaitingPick !== pickId)
      prompt.current?.scrollIntoView({ block: "center", behavior: "smooth" });
  }, [awaitingPick, pickId]);
  useEffect(() => {
    if (!failure) return;
    failed.current?.scrollIntoView({ block: "center", behavior: "smooth" });
    failed.current?.focus({ preventScroll: true });
  }, [failure]);

  function register(sheetUrl: string, how: Via) {
    setBusy(sheetUrl === address ? "address" : "picker");
    startTransition(async () => {
      const result = await registerSheetAction({ sheetUrl, via: how });
      setBusy(null);
      // The Picker is offered for the sheet itself: its id, not the address as pasted.
      const sheetId = sheetIdIn(sheetUrl);
      if (result.ok) setRegistered(result.data);
      // Google not connected yet: choosing the sheet in Drive (after Google's consent) is the usual
      // first step, not a failure, and the person is on the dashboard the message would point to.
      else if ((result.reason === "not_picked" || (result.reason === "no_google_grant" && !googleEmail)) && sheetId)
        setAwaitingPick(sheetId);
      else setFailure({ message: result.error, reason: result.reason, sheetId });
    });
  }

  /** Clears the last result, asking first when its one-time key was not copied; false when declined. */
  function startOver(): boolean {
    if (registered?.api_key && !keyCopied && !window.confirm(LEAVE_UNCOPIED)) return false;
    setFailure(null);
    setNothingChosen(false);
    setRegistered(null);
    setKeyCopied(false);
    return true;
  }

  function choose(fileId?: string, how: Via = via) {
    if (!startOver()) return;
    setBusy("picker");
    startTransition(async () => {
      const session = await pickerSessionAction({});
      if (!session.ok) {
        setBusy(null);
        setFailure({ message: session.error, reason: session.reason });
        return;
      }
      try {
        const outcome = await pickSpreadsheet(session.data, fileId);
        if ("cancelled" in outcome) {
          setBusy(null);
          setNothingChosen(true);
          return;
        }
        const result = await registerSheetAction({ sheetUrl: outcome.picked.id, via: how });
        setBusy(null);
        if (result.ok) setRegistered(result.data);
        else setFailure({ message: result.error, reason: result.reason, sheetId: outcome.picked.id });
      } catch (err) {
        setBusy(null);
        setFailure({ message: (err as Error).message });
      }
    });
  }

  useEffect(() => {
    // Marks the form interactive (tests wait for it before clicking the Picker button).
    section.current?.setAttribute("data-hydrated", "true");
    if (autoOpen && googleEmail && !opened.current) {
      opened.current = true;
      // Once: a reload or a later visit must not open the Picker again. After this first commit's
      // effects, when the App Router has taken over the history API: its own canonical address
      // then follows, and no later update of the router writes ?picker=open back as a new entry.
      setTimeout(() => window.history.replaceState(null, "", "/dashboard"), 0);
      choose();
    }
    // Once, on arrival from Google's consent screen.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  function submitAddress(e: React.FormEvent) {
    e.preventDefault();
    if (!startOver()) return;
    setAwaitingPick(pickId);
    register(address, "service");
  }

  const connectHref = "/auth/google/connect";
  // One name for one action: without a Google connection the same button goes to Google's consent
  // first, and the Picker opens on return.
  const pickerButton = (fileId?: string, label = CHOOSE, testId = "choose-from-drive", look = primary) =>
    googleEmail ? (
      <button type="button" onClick={() => choose(fileId)} disabled={pending} data-testid={testId} className={look}>
        {busy === "picker" ? "Waiting for Google Drive…" : label}
      </button>
    ) : (
      <a
        href={fileId ? `/auth/google?sheet_url=${encodeURIComponent(fileId)}` : connectHref}
        data-testid={fileId ? "connect-google-pending" : "connect-google"}
        className={look}
      >
        {label}
      </a>
    );

  return (
    <section
      className="rounded-lg border border-slate-200 p-4 sm:p-6 dark:border-slate-800"
      data-testid="register-form"
      ref={section}
    >
      <h2 className="text-lg font-semibold">Register a sheet</h2>

      {awaitingPick && !registered && (
        <div
          role="status"
          data-testid="pick-prompt"
          ref={prompt}
          className="mt-4 space-y-3 rounded-md border border-amber-300 bg-amber-50 p-4 text-sm dark:border-amber-700 dark:bg-amber-950"
        >
          <p>
            One more step: choose the spreadsheet <code className="break-all font-mono text-xs">{awaitingPick}</code> in
            Google Drive. That is how Google confirms to SheetAPI that your account can open it.
          </p>
          {pickerButton(awaitingPick, "Choose it in Google Drive", "choose-pending")}
        </div>
      )}

      <div className="mt-4 space-y-3">
        <div className="flex flex-col gap-2 sm:flex-row sm:items-center sm:gap-4">
          {/* While a sheet the person asked for waits above, this one is the lesser way. */}
          {pickerButton(undefined, undefined, undefined, awaitingPick && !registered ? secondary : primary)}
          {googleEmail && (
            <span className="text-xs text-slate-500 dark:text-slate-400" data-testid="google-account">
              as {googleEmail}
            </span>
          )}
        </div>
        <p className="text-sm text-slate-600 dark:text-slate-400">
          Google then confirms that you can open the sheet, and whether you can edit it (writes need that).
        </p>
        {!googleEmail && scopes}
      </div>

      <form onSubmit={submitAddress} className="mt-6 border-t border-slate-200 pt-4 dark:border-slate-800">
        <label htmlFor="sheet-url" className="text-sm font-medium">
          Or paste the sheet&apos;s address
        </label>
        <p id="sheet-url-help" className="mt-1 text-xs text-slate-600 dark:text-slate-400">
          Google confirms only the sheets you have chosen in Google Drive for SheetAPI: for any other, you are offered
          Google Drive, opened on that sheet, to choose it first.
        </p>
        <div className="mt-2 flex flex-col gap-2 sm:flex-row">
          <input
            id="sheet-url"
            name="sheetUrl"
            data-testid="sheet-url"
            value={address}
            onChange={(e) => setAddress(e.target.value)}
            aria-describedby="sheet-url-help"
            autoComplete="off"
            inputMode="url"
            placeholder="https://docs.google.com/spreadsheets/d/…/edit"
            className="min-w-0 flex-1 rounded-md border border-slate-300 bg-transparent px-3 py-2 text-sm dark:border-slate-700"
          />
          <button type="submit" disabled={pending} data-testid="register-submit" className={secondary}>
            {busy === "address" ? "Checking with Google…" : "Register this address"}
          </button>
        </div>
      </form>

      {nothingChosen && !failure && !registered && (
        <div
          role="status"
          data-testid="nothing-chosen"
          ref={nothing}
          tabIndex={-1}
          className="mt-4 outline-none space-y-2 rounded-md bg-slate-50 p-3 text-sm dark:bg-slate-900"
        >
          <p className="font-medium">No sheet chosen.</p>
          <p className="text-slate-700 dark:text-slate-300">
            Google Drive lists only the spreadsheets{" "}
            {googleEmail ? (
              <>
                the Google account <strong className="break-all">{googleEmail}</strong>
              </>
            ) : (
              "your Google account"
            )}{" "}
            can open. If yours is not there, it belongs to another Google account, or its owner has not shared it with
            this one yet (in Google Sheets: Share, add this address).{" "}
            {googleEmulated ? (
              <>
                No sheet at all? This machine&apos;s Google stand-in has no Google Sheets: use &ldquo;Create a sample
                spreadsheet&rdquo; in the Google Drive window, then choose it.
              </>
            ) : (
              <>
                No sheet at all? Make one in Google Sheets with column names in row 1 (for example id, name, email),
                then choose it here.
              </>
            )}
          </p>
        </div>
      )}

      {failure && (
        <div
          role="alert"
          data-testid="register-error"
          ref={failed}
          tabIndex={-1}
          className="mt-4 space-y-3 outline-none rounded-md bg-red-50 p-3 text-sm text-red-800 dark:bg-red-950 dark:text-red-200"
        >
          <p className="[overflow-wrap:anywhere]">{failure.message}</p>
          {/* A pasted sheet goes with the person to Google: the Picker then opens on it. */}
          {NEEDS_GOOGLE.includes(failure.reason ?? "") && !googleEmail && (
            <a
              href={failure.sheetId ? `/auth/google?sheet_url=${encodeURIComponent(failure.sheetId)}` : connectHref}
              data-testid="connect-google-failed"
              className={primary}
            >
              {failure.sheetId ? "Choose it in Google Drive" : CHOOSE}
            </a>
          )}
          {NEEDS_GOOGLE.includes(failure.reason ?? "") && googleEmail && (
            <a href={connectHref} data-testid="connect-again" className={secondary}>
              Connect Google again
            </a>
          )}
        </div>
      )}

      {registered && (
        <div
          className="mt-4 scroll-mt-4 space-y-3 outline-none"
          data-testid="register-result"
          ref={result}
          tabIndex={-1}
        >
          <p className="text-sm">
            {registered.created ? "Registered" : "Already registered"}:{" "}
            <Link
              href={`/dashboard/sheets/${registered.sheet_id}`}
              className="font-medium text-emerald-700 underline dark:text-emerald-400"
            >
              {registered.sheet_name}
            </Link>{" "}
            ({registered.writable ? "read and write" : "read-only"})
          </p>
          {!registered.writable && registered.proof === "edit" && (
            <WritableThroughGrant sheetId={registered.sheet_id} />
          )}
          {!registered.writable && registered.proof === "view" && (
            <p className="text-xs text-slate-600 dark:text-slate-400">
              Read-only because Google says your account can view this sheet but not edit it. Someone who can edit it
              may claim it later.
            </p>
          )}
          {registered.api_key ? (
            <NewKeyNotice
              askBeforeLeaving
              onCopied={() => setKeyCopied(true)}
              value={registered.api_key}
              target={{ baseUrl: registered.base_url, sheetId: registered.sheet_id, tab: registered.tabs[0]?.name }}
            />
          ) : (
            <p className="text-xs text-slate-600 dark:text-slate-400">
              Its API docs:{" "}
              <a className="break-all underline" href={registered.docs_url} data-testid="docs-link">
                {registered.docs_url}
              </a>
            </p>
          )}
          <p className="text-sm">
            <Link
              href={`/dashboard/sheets/${registered.sheet_id}`}
              className="font-medium text-emerald-700 underline dark:text-emerald-400"
              data-testid="open-sheet"
            >
              Open the sheet&apos;s page
            </Link>{" "}
            <span className="text-slate-600 dark:text-slate-400">
              for more keys, usage and a Try it that does not count against your plan.
            </span>
          </p>
        </div>
      )}

      {notes}
    </section>
  );
}
