// The registration form's fixed text, rendered on the server and handed to the form: words ship
// as HTML, not as JavaScript the phone must download and run.
import { CHOOSE } from "./choose-label";

export function ScopesExplained() {
  return (
    <div className="rounded-md bg-slate-50 p-4 text-sm dark:bg-slate-900" data-testid="scopes-explained">
      <p className="font-medium">Google will ask you to allow SheetAPI to:</p>
      <ul className="mt-2 list-disc space-y-1 pl-5 text-slate-700 dark:text-slate-300">
        <li>
          <strong>See your email address</strong>, to know which Google account proves access.
        </li>
        <li>
          <strong>See, edit, create and delete only the specific Google Drive files that you use with this app</strong>:
          the spreadsheets you choose here, nothing else in your Drive.
        </li>
      </ul>
      <p className="mt-2 text-slate-600 dark:text-slate-400">
        Keep both ticked. SheetAPI never asks for access to all of your files.
      </p>
    </div>
  );
}

export function RegisterNotes({ serviceAccountEmail }: { serviceAccountEmail: string }) {
  return (
    <ul className="mt-6 space-y-1 text-xs text-slate-600 dark:text-slate-400">
      <li>
        <strong>Writes.</strong> Share the sheet with <code className="break-all font-mono">{serviceAccountEmail}</code>{" "}
        as Editor and SheetAPI writes with its own account; otherwise it writes through your Google account. Sharing
        alone does not register a sheet: register it here too, with &ldquo;{CHOOSE}&rdquo;, which is how Google confirms
        it is yours to register.
      </li>
      <li>
        <strong>Public docs.</strong> Once registered, the sheet&apos;s tab names, column names and types appear on its
        public docs page (/docs/&lt;sheet id&gt;); for a sheet anyone with the link can view, example values from its
        rows appear there too, unless you turn that off on the sheet&apos;s page.
      </li>
    </ul>
  );
}
