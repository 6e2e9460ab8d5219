import { BackLink } from "../../back-link";

// A sheet page of a sheet this account does not hold (another account's, one it removed, or a
// mistyped id): said inside the dashboard, whose header is already on the page.
export default function SheetNotFound() {
  return (
    <div className="space-y-3" data-testid="sheet-not-found">
      <BackLink href="/dashboard">Your sheets</BackLink>
      <h1 className="text-2xl font-bold">No such sheet in your account</h1>
      <p className="text-sm text-slate-600 dark:text-slate-400">
        This account has not registered a sheet with this id. Register it from your dashboard, or check that you are
        signed in with the account that registered it.
      </p>
    </div>
  );
}
