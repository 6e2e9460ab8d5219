import Link from "next/link";
import { Brand } from "@/app/components/brand";

export default function DocsLayout({ children }: { children: React.ReactNode }) {
  return (
    <div className="min-h-screen">
      <header className="border-b border-slate-200 dark:border-slate-800">
        <div className="mx-auto flex max-w-4xl items-center justify-between gap-4 px-4 py-4 sm:px-6">
          <div className="flex items-center gap-4">
            <Brand />
            <Link
              href="/docs"
              className="inline-flex min-h-11 items-center text-sm text-slate-600 hover:text-slate-900 sm:min-h-0 dark:text-slate-400 dark:hover:text-white"
            >
              Docs
            </Link>
          </div>
          <Link
            href="/dashboard"
            className="inline-flex min-h-11 items-center text-sm text-slate-600 hover:text-slate-900 sm:min-h-0 dark:text-slate-400 dark:hover:text-white"
          >
            Dashboard
          </Link>
        </div>
      </header>
      <main id="main" className="mx-auto max-w-4xl px-4 py-10 sm:px-6">
        {children}
      </main>
    </div>
  );
}
