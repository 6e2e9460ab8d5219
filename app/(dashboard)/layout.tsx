import { Brand } from "@/app/components/brand";
import { SubmitButton } from "@/app/components/submit-button";
import { signOut } from "@/lib/auth/auth";
import { headers } from "next/headers";
import { RETURN_TO_HEADER } from "@/lib/auth/return-to";
import { requireUser } from "@/lib/auth/session";
import { NavLink } from "./nav-link";

export const dynamic = "force-dynamic";

export default async function DashboardLayout({ children }: { children: React.ReactNode }) {
  // The page asked for (set by proxy.ts), so a signed-out visit returns there after sign-in.
  const user = await requireUser((await headers()).get(RETURN_TO_HEADER) ?? "/dashboard");

  async function signOutAction() {
    "use server";
    await signOut({ redirectTo: "/" });
  }

  return (
    <div className="min-h-screen">
      <header className="border-b border-slate-200 dark:border-slate-800">
        {/* On a phone the account line wraps under the brand and nav instead of pushing the page wider. */}
        <div className="mx-auto flex max-w-5xl flex-wrap items-center justify-between gap-x-6 gap-y-2 px-4 py-3 sm:px-6 sm:py-4">
          <div className="flex items-center gap-4 sm:gap-6">
            <Brand />
            <nav className="flex gap-4 text-sm text-slate-600 dark:text-slate-400">
              {/* At least 44 px tall on a touch screen: a finger finds them. */}
              <NavLink href="/dashboard" section={["/dashboard/sheets"]} testId="nav-sheets">
                Sheets
              </NavLink>
              <NavLink href="/dashboard/usage" testId="nav-usage">
                Usage
              </NavLink>
            </nav>
          </div>
          <div className="flex min-w-0 items-center gap-3 text-sm">
            <span
              data-testid="account-email"
              title={user.email}
              className="min-w-0 max-w-[14rem] truncate text-slate-600 sm:max-w-xs dark:text-slate-400"
            >
              {user.email}
            </span>
            <form action={signOutAction} className="shrink-0">
              <SubmitButton
                testId="sign-out"
                pendingText="Signing out…"
                className="min-h-11 rounded-md border border-slate-300 px-3 py-1.5 hover:bg-slate-50 sm:min-h-0 dark:border-slate-700 dark:hover:bg-slate-900"
              >
                Sign out
              </SubmitButton>
            </form>
          </div>
        </div>
      </header>
      <main id="main" className="mx-auto max-w-5xl px-4 py-8 sm:px-6 sm:py-10">
        {children}
      </main>
    </div>
  );
}
