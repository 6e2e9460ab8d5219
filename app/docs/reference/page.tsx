// GET /docs/reference: the reference pages, one line each.
import type { Metadata } from "next";
import Link from "next/link";
import { REFERENCE_PAGES, referencePath, type ReferencePage } from "@/lib/docs/reference";
import { REFERENCE_LABELS } from "./reference-nav";

export const metadata: Metadata = { title: "Reference · SheetAPI" };
// Pages under /docs are rendered per request, each with its own script nonce (proxy.ts).
export const dynamic = "force-dynamic";

const WHAT: Record<ReferencePage, string> = {
  api: "Routes, the rows API in full, errors, rate-limit headers, plans and limits, usage, keys and browser keys.",
  forms: "Plain HTML forms that add rows: form keys, the snippet, spam and limits.",
  webhooks: "Change events, signed deliveries, retries and the events feed.",
  security: "The OWASP API Security Top 10 review, access to a sheet, and hardening.",
  operations: "Production settings, Google setup and quotas, deploying, health, metrics, logs and billing.",
  architecture: "The folders, a request's and a write's way, the caches, the stores and the emulators.",
};

export default function ReferenceIndex() {
  return (
    <article className="space-y-6">
      <h1 className="text-3xl font-bold">Reference</h1>
      <p className="text-slate-600 dark:text-slate-400">
        The full text behind the{" "}
        <Link href="/docs" className="underline">
          guide
        </Link>
        , the same pages the repository keeps in <code>docs/</code>.
      </p>
      <ul className="space-y-3">
        {REFERENCE_PAGES.map((page) => (
          <li key={page}>
            <Link href={referencePath(page)} className="font-medium underline">
              {REFERENCE_LABELS[page]}
            </Link>
            : <span className="text-slate-600 dark:text-slate-400">{WHAT[page]}</span>
          </li>
        ))}
      </ul>
    </article>
  );
}
