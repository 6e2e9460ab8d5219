"use client";

import Link from "next/link";
import { useState, useTransition } from "react";
import { registerSheetAction } from "./actions";
import { NewKeyNotice } from "./new-key-notice";

type Registered = { sheet_id: string; sheet_name: string; created: boolean; writable: boolean; api_key: string | null };

export function RegisterForm({ serviceAccountEmail }: { serviceAccountEmail: string }) {
  const [pending, startTransition] = useTransition();
  const [error, setError] = useState<string | null>(null);
  const [registered, setRegistered] = useState<Registered | null>(null);

  function submit(form: FormData) {
    const sheetUrl = String(form.get("sheetUrl") ?? "");
    setError(null);
    setRegistered(null);
    startTransition(async () => {
      const result = await registerSheetAction({ sheetUrl });
      if (result.ok) setRegistered(result.data);
      else setError(result.error);
    });
  }

  return (
    <section className="rounded-lg border border-slate-200 p-6 dark:border-slate-800">
      <h2 className="text-lg font-semibold">Register a sheet</h2>
      <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
        Paste the sheet&apos;s address. To let the API write, share the sheet with{" "}
        <code className="font-mono text-xs">{serviceAccountEmail}</code> as Editor; a sheet anyone with the link can view is
        registered read-only.
      </p>
      <form action={submit} className="mt-4 flex flex-col gap-3 sm:flex-row">
        <input
          name="sheetUrl"
          data-testid="sheet-url"
          required
          placeholder="https://docs.google.com/spreadsheets/d/…/edit"
          className="flex-1 rounded-md border border-slate-300 bg-transparent px-3 py-2 text-sm dark:border-slate-700"
        />
        <button type="submit" disabled={pending} data-testid="register-submit" className="rounded-md bg-emerald-600 px-4 py-2 text-sm font-medium text-white hover:bg-emerald-700 disabled:opacity-60">
          {pending ? "Checking…" : "Register"}
        </button>
      </form>
      <form action="/auth/google" method="get" className="mt-3 flex flex-col gap-3 sm:flex-row">
        <input name="sheet_url" data-testid="private-sheet-url" required placeholder="Private sheet address" className="flex-1 rounded-md border border-slate-300 bg-transparent px-3 py-2 text-sm dark:border-slate-700" />
        <button type="submit" className="rounded-md border border-slate-300 px-4 py-2 text-sm hover:bg-slate-50 dark:border-slate-700 dark:hover:bg-slate-900">
          Register privately with Google
        </button>
      </form>
      {error && (
        <p role="alert" data-testid="register-error" className="mt-4 rounded-md bg-red-50 p-3 text-sm text-red-800 dark:bg-red-950 dark:text-red-200">
          {error}
        </p>
      )}
      {registered && (
        <div className="mt-4 space-y-3" data-testid="register-result">
          <p className="text-sm">
            {registered.created ? "Registered" : "Already registered"}:{" "}
            <Link href={`/dashboard/sheets/${registered.sheet_id}`} className="font-medium text-emerald-700 underline dark:text-emerald-400">
              {registered.sheet_name}
            </Link>{" "}
            ({registered.writable ? "read and write" : "read-only"})
          </p>
          {registered.api_key && <NewKeyNotice value={registered.api_key} />}
        </div>
      )}
    </section>
  );
}
