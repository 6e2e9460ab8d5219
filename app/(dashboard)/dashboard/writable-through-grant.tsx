/**
 * An editor's sheet the service account may only view (a public one) is read-only until the
 * private flow lets SheetAPI write with the editor's own Google access (DECISIONS 18).
 */
export function WritableThroughGrant({ sheetId }: { sheetId: string }) {
  return (
    <p className="text-xs text-slate-600 dark:text-slate-400" data-testid="writable-through-grant">
      Read-only because SheetAPI&apos;s own Google account can only view this sheet. You can edit it:{" "}
      <a
        href={`/auth/google?sheet_url=${encodeURIComponent(sheetId)}`}
        className="font-medium text-emerald-700 underline dark:text-emerald-400"
      >
        let SheetAPI write with your Google account
      </a>{" "}
      (your keys stay the same), or share the sheet with SheetAPI&apos;s account as Editor and register it again.
    </p>
  );
}
