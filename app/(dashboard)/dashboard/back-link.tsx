import Link from "next/link";
import type { ReactNode } from "react";

/** The way back up from a dashboard page ("← Your sheets"), tap-sized on a phone. */
export function BackLink({ href, children }: { href: string; children: ReactNode }) {
  return (
    <Link
      href={href}
      className="inline-flex min-h-11 items-center text-sm text-slate-500 dark:text-slate-400 hover:underline sm:min-h-0"
    >
      ← {children}
    </Link>
  );
}
