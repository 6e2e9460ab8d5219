import type { Metadata } from "next";
import Link from "next/link";
import { Brand } from "@/app/components/brand";

// The 404 page for browsers: unknown addresses (and notFound() anywhere without its own page).
// API clients asking the same address get the JSON envelope instead (app/[...path]/route.ts).
export const metadata: Metadata = { title: "Page not found · SheetAPI" };

export default function NotFound() {
  return (
    <main
      id="main"
      className="mx-auto flex min-h-screen max-w-xl flex-col justify-center px-4 py-16 sm:px-6"
      data-testid="not-found"
    >
      <Brand />
      <p className="mt-10 text-sm font-semibold text-emerald-700 dark:text-emerald-400">404</p>
      <h1 className="mt-2 text-3xl font-bold">Page not found</h1>
      <p className="mt-3 text-slate-600 dark:text-slate-400">
        There is no page at this address. It may have moved, or the link may have a typo.
      </p>
      <nav className="mt-8 flex flex-wrap gap-3 text-sm">
        <Link href="/" className="rounded-md bg-emerald-700 px-4 py-2 font-medium text-white hover:bg-emerald-800">
          Home
        </Link>
        <Link
          href="/docs"
          className="rounded-md border border-slate-300 px-4 py-2 hover:bg-slate-50 dark:border-slate-700 dark:hover:bg-slate-900"
        >
          Read the guide
        </Link>
        <Link
          href="/dashboard"
          className="rounded-md border border-slate-300 px-4 py-2 hover:bg-slate-50 dark:border-slate-700 dark:hover:bg-slate-900"
        >
          Your dashboard
        </Link>
      </nav>
    </main>
  );
}
