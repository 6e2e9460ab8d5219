"use client";
// The owner's choice of how the API enters written strings: as text (RAW, the default, so a value
// starting with "=" can never run as a formula), or parsed as if typed in Google Sheets.
import { saveWriteModeAction } from "../../actions";
import { SavedToggle } from "./saved-toggle";

const TURN_ON = "Parse written values as typed in Google Sheets? Any key that can write this sheet will then be able to write formulas (=IMPORTXML, =HYPERLINK, ...), not only text.";

export function WriteMode({ sheetId, userEnteredWrites }: { sheetId: string; userEnteredWrites: boolean }) {
  return (
    <SavedToggle
      id="user-entered-writes"
      testId="write-mode"
      toggleTestId="user-entered-writes"
      initial={userEnteredWrites}
      label="Parse written values as if typed in Google Sheets"
      help={
        <>
          Off (the default): strings are stored as text exactly as sent, so <code>=IMPORTXML(…)</code> stays text. On: strings are
          entered as in the Sheets UI: <code>&quot;42&quot;</code> becomes a number, <code>&quot;2024-01-15&quot;</code> a date,{" "}
          <code>&quot;TRUE&quot;</code> a boolean and <code>&quot;=B2*2&quot;</code> a formula, so any key that can write can also write formulas.
          Saved as soon as it changes.
        </>
      }
      confirmOn={TURN_ON}
      save={async (on) => {
        const result = await saveWriteModeAction({ sheetId, userEnteredWrites: on });
        return result.ok ? { ok: true, data: result.data.userEnteredWrites } : { ok: false, error: result.error };
      }}
      saved={(on) => (on ? "Saved: written values are parsed, formulas included." : "Saved: written values are stored as text.")}
    />
  );
}
