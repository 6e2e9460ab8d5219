import Link from "next/link";

export default function SheetDocsNotFound() {
  return (
    <div className="space-y-4 py-16 text-center" data-testid="docs-not-found">
      <p className="text-sm font-semibold text-emerald-700 dark:text-emerald-400">404</p>
      <h1 className="text-2xl font-bold">No API documentation here</h1>
      <p className="text-slate-600 dark:text-slate-400">
        No sheet with this id is registered with SheetAPI. Check the address, or ask the sheet&apos;s owner for it.
      </p>
      <Link
        href="/docs"
        className="inline-block rounded-md border border-slate-300 px-4 py-2 text-sm hover:bg-slate-50 dark:border-slate-700 dark:hover:bg-slate-900"
      >
        Read the guide
      </Link>
    </div>
  );
}
