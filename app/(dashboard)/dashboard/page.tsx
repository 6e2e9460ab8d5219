import type { Metadata } from "next";
import { cookies } from "next/headers";
import Link from "next/link";
import { ERROR_FLASH_COOKIE, readErrorFlash } from "@/lib/auth/error-flash";
import { listClaimsAgainst, listSheets } from "@/db/queries/sheets";
import { usableGrants } from "@/lib/sheets/access/proof";
import { writesAllowed } from "@/lib/sheets/access/access-lapse";
import { unprovenUntil } from "@/lib/sheets/access/access-check";
import { UnprovenNotice } from "./sheets/[sheetId]/access-lapsed";
import { ClaimedNotice } from "./claimed-notice";
import { requireUser } from "@/lib/auth/session";
import { config } from "@/lib/env";
import { serviceAccountFor } from "@/lib/google/identities";
import { getUserById } from "@/db/queries/users";
import { accountLimits } from "@/lib/limits/accounts";
import { planOf } from "@/lib/plans";
import { quotaSnapshot } from "@/lib/usage/usage-report";
import { isSheetId } from "@/lib/sheets/registration/sheet-url";
import { accessLabel } from "./access-label";
import { ConfirmRegistration } from "./confirm-registration";
import { PaymentFailedNotice } from "./payment-notice";
import { LimitReachedNotice } from "./quota-line";
import { RegisterForm } from "./register-form";
import { RegisterNotes, ScopesExplained } from "./register-notes";

export const metadata: Metadata = { title: "Your sheets · SheetAPI" };

export const dynamic = "force-dynamic";

export default async function DashboardPage({
  searchParams,
}: {
  searchParams: Promise<{ error?: string; pick?: string; via?: string; picker?: string; register?: string }>;
}) {
  const user = await requireUser("/dashboard");
  const [{ error: errorId, pick, via, picker, register }, sheets, account, grants, claims, jar, quota] =
    await Promise.all([
      searchParams,
      listSheets({ userId: user.id }),
      getUserById({ id: user.id }),
      usableGrants(user.id),
      listClaimsAgainst({ userId: user.id }),
      cookies(),
      accountLimits(user.id).then((limits) => quotaSnapshot(limits)),
    ]);
  // Only a message this browser was sent by our own redirect: never text from the URL.
  const error = readErrorFlash(jar.get(ERROR_FLASH_COOKIE)?.value, errorId);

  return (
    <div className="space-y-8">
      <h1 className="text-2xl font-bold">Your sheets</h1>
      {error && (
        <p
          role="alert"
          data-testid="dashboard-error"
          className="rounded-md bg-red-50 p-3 text-sm text-red-800 dark:bg-red-950 dark:text-red-200"
        >
          {error}
        </p>
      )}
      {isSheetId(register) && <ConfirmRegistration sheetId={register} />}
      <PaymentFailedNotice userId={user.id} />
      <LimitReachedNotice quota={quota} />
      <ClaimedNotice claims={claims} />
      {sheets.length === 0 ? (
        <div
          data-testid="first-steps"
          className="rounded-lg border border-emerald-200 bg-emerald-50/60 p-4 text-sm dark:border-emerald-900 dark:bg-emerald-950/40"
        >
          <p>
            <span className="font-medium">No sheets yet.</span> Choose a spreadsheet below (row 1 holds the column
            names), copy the key shown once and run its <code>curl</code> line.{" "}
            <Link href="/docs" className="font-medium underline">
              The guide
            </Link>{" "}
            shows every request.
          </p>
        </div>
      ) : (
        <ul
          className="divide-y divide-slate-200 rounded-lg border border-slate-200 dark:divide-slate-800 dark:border-slate-800"
          data-testid="sheet-list"
        >
          {sheets.map((s) => (
            <li
              key={s.id}
              className="flex flex-col gap-1 p-4 sm:flex-row sm:flex-wrap sm:items-center sm:justify-between"
            >
              <div className="min-w-0">
                <Link
                  href={`/dashboard/sheets/${s.id}`}
                  className="inline-flex min-h-11 items-center font-medium text-emerald-800 underline decoration-emerald-800/30 underline-offset-4 hover:decoration-emerald-800 sm:min-h-0 dark:text-emerald-300"
                >
                  {s.name}
                </Link>
                <p className="font-mono text-xs break-all text-slate-500 dark:text-slate-400">{s.id}</p>
              </div>
              <div className="flex flex-wrap gap-2 text-xs">
                {s.needsReauth && (
                  <span className="rounded bg-red-100 px-2 py-1 text-red-800 dark:bg-red-950 dark:text-red-200">
                    needs re-authorization
                  </span>
                )}
                {s.accessState === "suspended" && (
                  <span
                    data-testid="sheet-suspended"
                    className="rounded bg-red-100 px-2 py-1 text-red-800 dark:bg-red-950 dark:text-red-200"
                  >
                    suspended: access lost in Google
                  </span>
                )}
                {s.accessState === "unproven" && (
                  <span
                    data-testid="sheet-unproven"
                    className="rounded bg-amber-100 px-2 py-1 text-amber-900 dark:bg-amber-950 dark:text-amber-100"
                  >
                    access not proven yet
                  </span>
                )}
                <span className="rounded bg-slate-100 px-2 py-1 dark:bg-slate-800">
                  {accessLabel(s.access, s.grantEmail, s.serviceAccount)}
                </span>
                <span className="rounded bg-slate-100 px-2 py-1 dark:bg-slate-800">
                  {writesAllowed(s) ? "read and write" : "read-only"}
                </span>
              </div>
              {unprovenUntil(s) && (
                <div className="sm:basis-full">
                  <UnprovenNotice sheetId={s.id} until={unprovenUntil(s)!.toISOString()} compact />
                </div>
              )}
            </li>
          ))}
        </ul>
      )}
      <RegisterForm
        scopes={<ScopesExplained />}
        // The address this account's sheets are shared with (one of the service's identities).
        notes={<RegisterNotes serviceAccountEmail={await serviceAccountFor(user.id)} />}
        googleEmail={grants[0]?.email ?? null}
        // Not for a sheet already on the list (the address kept from a flow that registered it).
        pickId={isSheetId(pick) && !sheets.some((s) => s.id === pick) ? pick : undefined}
        via={via === "grant" ? "grant" : "service"}
        autoOpen={picker === "open"}
        googleEmulated={config().google.emulated}
      />
      <p className="text-sm text-slate-600 dark:text-slate-400">
        {planOf(account?.plan ?? "free_trial").label} plan.{" "}
        <Link href="/dashboard/usage" className="font-medium underline" data-testid="usage-link">
          See usage and change plan
        </Link>
      </p>
    </div>
  );
}
