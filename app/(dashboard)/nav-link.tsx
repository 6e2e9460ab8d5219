"use client";
// A header link that marks the section being shown (aria-current, and in bold), so a visitor,
// and a screen reader, can tell where they are.
import Link from "next/link";
import { usePathname } from "next/navigation";

/** `section`: other paths this link stands for, as prefixes (`/dashboard/sheets` covers every sheet page). */
export function NavLink({
  href,
  section = [],
  testId,
  children,
}: {
  href: string;
  section?: string[];
  testId?: string;
  children: React.ReactNode;
}) {
  const path = usePathname();
  const current = path === href || section.some((prefix) => path === prefix || path.startsWith(`${prefix}/`));
  return (
    <Link
      href={href}
      aria-current={current ? "page" : undefined}
      data-testid={testId}
      className={`inline-flex min-h-11 items-center hover:text-slate-900 sm:min-h-0 dark:hover:text-white ${current ? "font-semibold text-slate-900 underline decoration-2 underline-offset-8 dark:text-white" : ""}`}
    >
      {children}
    </Link>
  );
}
