import Link from "next/link";

/**
 * A registration a link from another site asked for (GET /auth/google?sheet_url= sends it here):
 * nothing is registered until the owner says so. The button posts from this page, which is what
 * proves the request came from the dashboard and not from the other site.
 */
export function ConfirmRegistration({ sheetId }: { sheetId: string }) {
  return (
    <section
      role="status"
      data-testid="confirm-registration"
      className="space-y-3 rounded-md border border-amber-300 bg-amber-50 p-4 text-sm dark:border-amber-700 dark:bg-amber-950"
    >
      <p>
        A link asked to register the spreadsheet{" "}
        <code className="break-all font-mono text-xs" data-testid="confirm-sheet-id">
          {sheetId}
        </code>{" "}
        with your account, through your Google account, and to create an API key for it. Register it only if you meant
        to.
      </p>
      <form
        method="post"
        action={`/auth/google?sheet_url=${encodeURIComponent(sheetId)}`}
        className="flex flex-wrap items-center gap-3"
      >
        <button
          type="submit"
          data-testid="confirm-register"
          className="rounded-md bg-emerald-700 px-4 py-2 font-medium text-white hover:bg-emerald-800"
        >
          Register this sheet
        </button>
        <Link href="/dashboard" data-testid="cancel-register" className="font-medium underline">
          Not now
        </Link>
      </form>
    </section>
  );
}
