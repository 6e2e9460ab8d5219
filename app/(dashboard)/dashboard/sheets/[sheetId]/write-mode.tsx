"use client";
// The owner's choice of how the API enters written strings: as text (RAW, the default, so a value
// starting with "=" can never run as a formula), or parsed as if typed in Google Sheets.
import { saveWriteModeAction } from "../../actions";
import { SavedToggle } from "./saved-toggle";

const TURN_ON =
  "Parse written values as typed in Google Sheets? Any key that can write this sheet will then be able to plant live formulas (=IMPORTXML, =IMAGE, =HYPERLINK, ...) that fetch from other sites and can send this sheet's contents out, not only text. Keys created with \u201cRefuse formulas\u201d still cannot.";

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
          Off (the default): strings are stored as text exactly as sent, so <code>=IMPORTXML(…)</code> stays text. On:
          strings are entered as in the Sheets UI: <code>&quot;42&quot;</code> becomes a number,{" "}
          <code>&quot;2024-01-15&quot;</code> a date, <code>&quot;TRUE&quot;</code> a boolean and{" "}
          <code>&quot;=B2*2&quot;</code> a formula, so any key that can write can also plant live formulas:{" "}
          <code>=IMPORTXML(…)</code> or <code>=IMAGE(…)</code> fetch from other sites when the sheet is opened or
          recalculated, and can carry the sheet&apos;s other cells out in the address they fetch. A key created with{" "}
          <em>Refuse formulas</em> has such writes refused. Saved as soon as it changes.
        </>
      }
      confirmOn={TURN_ON}
      save={async (on) => {
        const result = await saveWriteModeAction({ sheetId, userEnteredWrites: on });
        return result.ok ? { ok: true, data: result.data.userEnteredWrites } : { ok: false, error: result.error };
      }}
      saved={(on) =>
        on ? "Saved: written values are parsed, formulas included." : "Saved: written values are stored as text."
      }
    />
  );
}
