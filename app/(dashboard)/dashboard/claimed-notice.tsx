import { LocalTime } from "@/app/components/local-time";
import type { SheetClaim } from "@/db/schema";

/** Sheets taken from this account by someone who proved with Google that they can edit them. */
export function ClaimedNotice({ claims }: { claims: SheetClaim[] }) {
  if (!claims.length) return null;
  return (
    <div
      role="status"
      data-testid="claimed-notice"
      className="space-y-2 rounded-md border border-amber-300 bg-amber-50 p-4 text-sm dark:border-amber-700 dark:bg-amber-950"
    >
      {claims.map((c) => (
        <p key={c.id}>
          <strong>{c.sheetName}</strong> was claimed on <LocalTime at={c.claimedAt.toISOString()} shape="day" /> by
          another account that proved with Google that it can edit the spreadsheet: its owner in Google, or an editor
          while your account could only view it or had lost access to it. Its API keys from your account no longer work
          (they answer 401). If you can edit the sheet yourself, ask its owner who registered it.
        </p>
      ))}
    </div>
  );
}
