"use client";

import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { LocalTime } from "@/app/components/local-time";
import type { AccessState } from "@/db/schema";
import { registerSheetAction } from "../../actions";

/**
 * "Prove access": registers the sheet again, so Google is asked with the account's grant; proven,
 * the registration is current again with the same keys. Says what Google answered otherwise.
 */
export function ProveAccessButton({
  sheetId,
  label = "Prove access",
  connect = "Connect Google again",
  tone = "red",
}: {
  sheetId: string;
  label?: string;
  connect?: string;
  tone?: "red" | "amber";
}) {
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  const [message, setMessage] = useState<string | null>(null);
  const prove = () =>
    startTransition(async () => {
      const result = await registerSheetAction({ sheetUrl: sheetId });
      if (result.ok) router.refresh();
      setMessage(result.ok ? "Google confirmed your access: the sheet is served as before." : result.error);
    });
  const colors =
    tone === "red"
      ? "bg-red-700 hover:bg-red-800 dark:bg-red-600 dark:hover:bg-red-500"
      : "bg-amber-700 hover:bg-amber-800 dark:bg-amber-600 dark:hover:bg-amber-500";
  return (
    <>
      <div className="flex flex-wrap items-center gap-3">
        <button
          type="button"
          data-testid="prove-again"
          disabled={pending}
          onClick={prove}
          className={`min-h-11 rounded-md px-3 py-1.5 font-medium text-white disabled:opacity-60 sm:min-h-0 ${colors}`}
        >
          {pending ? "Asking Google…" : label}
        </button>
        <a href={`/auth/google?sheet_url=${encodeURIComponent(sheetId)}`} className="font-medium underline">
          {connect}
        </a>
      </div>
      {message && (
        <p role="status" data-testid="prove-again-result" className="break-words">
          {message}
        </p>
      )}
    </>
  );
}

/**
 * A registration made before SheetAPI asked Google for proof of access, not proven since: still
 * served until `until`, then suspended unless its owner proves access (docs/security.md).
 */
export function UnprovenNotice({
  sheetId,
  until,
  compact = false,
}: {
  sheetId: string;
  until: string;
  compact?: boolean;
}) {
  return (
    <div
      role="alert"
      data-testid="access-unproven"
      data-until={until}
      className="space-y-3 rounded-md border border-amber-300 bg-amber-50 p-4 text-sm text-amber-950 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-100"
    >
      <p>
        <strong>
          Prove access by <LocalTime at={until} shape="day" />.
        </strong>{" "}
        This sheet was registered before SheetAPI asked Google to confirm that the account registering a sheet can open
        it, and Google has not confirmed it for your account yet.
        {compact
          ? " Its keys and webhooks work until then; unproven, it is suspended."
          : " Its keys and webhooks work as before until then. Without proof by that date the sheet is suspended: every key answers 403 and its waiting webhook deliveries are dropped."}
      </p>
      {!compact && (
        <p>
          Proving access takes one click if you have chosen this spreadsheet in Google Drive with your Google account;
          otherwise connect Google and choose it first.
        </p>
      )}
      <ProveAccessButton sheetId={sheetId} connect="Connect Google" tone="amber" />
    </div>
  );
}

/**
 * The registration's access lapsed in Google (DECISIONS 18): what happened, what the keys answer
 * now, and "Prove access again", which registers the sheet again (Google is asked with the
 * account's grant; restored, the same keys work again). Nothing when access is current.
 */
export function AccessLapsedNotice({
  sheetId,
  state,
  email,
  unprovenUntil,
  neverProven = false,
}: {
  sheetId: string;
  state: AccessState;
  email: string | null;
  unprovenUntil?: string;
  neverProven?: boolean;
}) {
  if (state === "unproven" && unprovenUntil) return <UnprovenNotice sheetId={sheetId} until={unprovenUntil} />;
  if (state !== "suspended" && state !== "read_only") return null;
  const who = email ? `Your Google account (${email})` : "The Google account you registered this sheet with";
  return (
    <div
      role="alert"
      data-testid="access-lapsed"
      data-state={state}
      className="space-y-3 rounded-md border border-red-300 bg-red-50 p-4 text-sm text-red-900 dark:border-red-800 dark:bg-red-950 dark:text-red-100"
    >
      {state === "suspended" && neverProven ? (
        <p>
          <strong>Suspended.</strong> This sheet was registered before SheetAPI asked Google to confirm access, and
          access was not proven before the grace period ended. Every key of this sheet answers 403 and nothing of it is
          served, not even from a cache; webhook deliveries have stopped and those waiting were dropped.
        </p>
      ) : state === "suspended" ? (
        <p>
          <strong>Suspended.</strong> {who} can no longer open this spreadsheet in Google (removed from it, link sharing
          turned off, or SheetAPI&apos;s access to your Google files revoked). Every key of this sheet answers 403 and
          nothing of it is served, not even from a cache; webhook deliveries have stopped and those waiting were
          dropped.
        </p>
      ) : (
        <p>
          <strong>Read-only.</strong> {who} can no longer edit this spreadsheet in Google; it can still view it. Reads
          go on; writes answer 403.
        </p>
      )}
      <p>Once you have access again in Google Sheets, prove it: your keys work again as they were.</p>
      <ProveAccessButton sheetId={sheetId} label="Prove access again" />
    </div>
  );
}
