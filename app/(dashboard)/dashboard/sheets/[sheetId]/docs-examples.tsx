"use client";
// The owner's choice of whether the public docs page shows the sheet's own first rows as examples
// (only ever while anyone with the sheet's link can view it) or values made up from column types.
import { saveDocsExamplesAction } from "../../actions";
import { SavedToggle } from "./saved-toggle";

export function DocsExamples({ sheetId, docsExamples }: { sheetId: string; docsExamples: boolean }) {
  return (
    <SavedToggle
      id="docs-examples"
      testId="docs-examples"
      initial={docsExamples}
      label="Show the sheet's own first rows as examples on the public docs page"
      help={
        <>
          Only while anyone with the sheet&apos;s link can view it (they can read those rows in Google Sheets anyway);
          otherwise, or with this off, examples are made up from the column types. Tab and column names always appear
          there. Saved as soon as it changes.
        </>
      }
      save={async (on) => {
        const result = await saveDocsExamplesAction({ sheetId, docsExamples: on });
        return result.ok ? { ok: true, data: result.data.docsExamples } : { ok: false, error: result.error };
      }}
      saved={(on) =>
        on ? "Saved: the docs page may show the sheet's first rows." : "Saved: the docs page shows made-up values."
      }
    />
  );
}
