"use client";
// A setting of the sheet as one checkbox, saved as soon as it changes: what it shows is what is
// saved (back to the former choice when a save fails), with a line saying so.
import { useState, useTransition, type ReactNode } from "react";

type Saved = { ok: true; data: boolean } | { ok: false; error: string };

interface SavedToggleProps {
  id: string;
  testId: string;
  /** The checkbox's own test id (default: `{testId}-toggle`). */
  toggleTestId?: string;
  initial: boolean;
  label: string;
  help: ReactNode;
  /** Asked before turning it on (a choice that widens what keys can do); off needs no question. */
  confirmOn?: string;
  save: (on: boolean) => Promise<Saved>;
  saved: (on: boolean) => string;
}

export function SavedToggle({
  id,
  testId,
  toggleTestId = `${testId}-toggle`,
  initial,
  label,
  help,
  confirmOn,
  save,
  saved,
}: SavedToggleProps) {
  const [pending, startTransition] = useTransition();
  const [on, setOn] = useState(initial);
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  // Only the box and its name are the label: a tap on the explanation must not switch it.
  return (
    <div className="flex items-start gap-3 text-sm" data-testid={testId}>
      <input
        id={id}
        type="checkbox"
        checked={on}
        disabled={pending}
        data-testid={toggleTestId}
        aria-describedby={`${id}-help`}
        className="mt-1"
        onChange={(e) => {
          const wanted = e.target.checked;
          if (wanted && confirmOn && !window.confirm(confirmOn)) return;
          setOn(wanted);
          startTransition(async () => {
            const result = await save(wanted);
            setOn(result.ok ? result.data : !wanted);
            setMessage(result.ok ? { ok: true, text: saved(result.data) } : { ok: false, text: result.error });
          });
        }}
      />
      <div className="space-y-1">
        <label htmlFor={id} className="block font-medium">
          {label}
        </label>
        <p id={`${id}-help`} className="text-slate-600 dark:text-slate-400">
          {help}
        </p>
        {message && (
          <p
            role="status"
            className={message.ok ? "text-emerald-700 dark:text-emerald-400" : "text-red-700 dark:text-red-300"}
          >
            {message.text}
          </p>
        )}
      </div>
    </div>
  );
}
