"use client";
// The owner's choice of how the API enters written strings: as text (RAW, the default, so a value
// starting with "=" can never run as a formula), or parsed as if typed in Google Sheets.
import { useState, useTransition } from "react";
import { saveWriteModeAction } from "../../actions";

export function WriteMode({ sheetId, userEnteredWrites }: { sheetId: string; userEnteredWrites: boolean }) {
  const [pending, startTransition] = useTransition();
  const [on, setOn] = useState(userEnteredWrites);
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  return (
    <label className="flex items-start gap-3 text-sm" data-testid="write-mode">
      <input
        type="checkbox"
        checked={on}
        disabled={pending}
        data-testid="user-entered-writes"
        className="mt-1"
        onChange={(e) => {
          const wanted = e.target.checked;
          setOn(wanted);
          startTransition(async () => {
            const result = await saveWriteModeAction({ sheetId, userEnteredWrites: wanted });
            // Shows what is saved: back to the former choice when the save failed.
            setOn(result.ok ? result.data.userEnteredWrites : !wanted);
            setMessage(result.ok ? { ok: true, text: "Saved." } : { ok: false, text: result.error });
          });
        }}
      />
      <span className="space-y-1">
        <span className="block font-medium">Parse written values as if typed in Google Sheets</span>
        <span className="block text-slate-600 dark:text-slate-400">
          Off (the default): strings are stored as text exactly as sent, so <code>=IMPORTXML(…)</code> stays text. On: strings are
          entered as in the Sheets UI: <code>&quot;42&quot;</code> becomes a number, <code>&quot;2024-01-15&quot;</code> a date,{" "}
          <code>&quot;TRUE&quot;</code> a boolean and <code>&quot;=B2*2&quot;</code> a formula, so any key that can write can also write formulas.
        </span>
        {message && <span role="status" className={`block ${message.ok ? "text-emerald-700 dark:text-emerald-400" : "text-red-700 dark:text-red-300"}`}>{message.text}</span>}
      </span>
    </label>
  );
}
