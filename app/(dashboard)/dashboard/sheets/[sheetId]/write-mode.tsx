"use client";
// The owner's choice of how the API enters written strings: as text (RAW, the default, so a value
// starting with "=" can never run as a formula), or parsed as if typed in Google Sheets.
import { useState, useTransition } from "react";
import { saveWriteModeAction } from "../../actions";

const TURN_ON = "Parse written values as typed in Google Sheets? Any key that can write this sheet will then be able to write formulas (=IMPORTXML, =HYPERLINK, ...), not only text.";

export function WriteMode({ sheetId, userEnteredWrites }: { sheetId: string; userEnteredWrites: boolean }) {
  const [pending, startTransition] = useTransition();
  const [on, setOn] = useState(userEnteredWrites);
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  // Only the box and its name are the label: a tap on the explanation must not switch it.
  return (
    <div className="flex items-start gap-3 text-sm" data-testid="write-mode">
      <input
        id="user-entered-writes"
        type="checkbox"
        checked={on}
        disabled={pending}
        data-testid="user-entered-writes"
        aria-describedby="user-entered-writes-help"
        className="mt-1"
        onChange={(e) => {
          const wanted = e.target.checked;
          // Turning it on lets every writing key enter formulas: asked first. Off needs no question.
          if (wanted && !window.confirm(TURN_ON)) return;
          setOn(wanted);
          startTransition(async () => {
            const result = await saveWriteModeAction({ sheetId, userEnteredWrites: wanted });
            // Shows what is saved: back to the former choice when the save failed.
            setOn(result.ok ? result.data.userEnteredWrites : !wanted);
            setMessage(result.ok ? { ok: true, text: wanted ? "Saved: written values are parsed, formulas included." : "Saved: written values are stored as text." } : { ok: false, text: result.error });
          });
        }}
      />
      <div className="space-y-1">
        <label htmlFor="user-entered-writes" className="block font-medium">Parse written values as if typed in Google Sheets</label>
        <p id="user-entered-writes-help" className="text-slate-600 dark:text-slate-400">
          Off (the default): strings are stored as text exactly as sent, so <code>=IMPORTXML(…)</code> stays text. On: strings are
          entered as in the Sheets UI: <code>&quot;42&quot;</code> becomes a number, <code>&quot;2024-01-15&quot;</code> a date,{" "}
          <code>&quot;TRUE&quot;</code> a boolean and <code>&quot;=B2*2&quot;</code> a formula, so any key that can write can also write formulas.
          Saved as soon as it changes.
        </p>
        {message && <p role="status" className={message.ok ? "text-emerald-700 dark:text-emerald-400" : "text-red-700 dark:text-red-300"}>{message.text}</p>}
      </div>
    </div>
  );
}
