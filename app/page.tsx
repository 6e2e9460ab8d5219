import Link from "next/link";
import { config } from "@/lib/env";
import { formatAmount, planPrices } from "@/lib/billing/plans";
import { PLANS, type PlanId } from "@/lib/plans";

// Rendered per request, as the guide is: the example names this installation's own address.
export const dynamic = "force-dynamic";

const FEATURES = [
  {
    title: "Every tab is a collection",
    body: "List, filter, sort, page, create, update and delete rows as JSON, with stable row ids.",
  },
  {
    title: "Keys with permissions",
    body: "Read, Write, Schema and Analytics per key. Shown once, stored hashed, revoked instantly everywhere.",
  },
  {
    title: "Safe with your data",
    body: "Values are written as text, never as formulas; a bad request writes nothing; a row is never overwritten by its neighbour.",
  },
  {
    title: "Limits you can count on",
    body: "Plan limits per minute, hour, day and month, exact across servers, with rate-limit headers on every answer.",
  },
  {
    title: "Open to inspect",
    body: "Generated docs and an OpenAPI 3.1 document per sheet, so any client generator, Postman or Prism works with your sheet as it is.",
  },
  {
    title: "Fast",
    body: "Tabs are cached with single-flight reads, and every write invalidates the cache on every server.",
  },
];

const count = (n: number) => n.toLocaleString("en-US");

/** Each plan's monthly price as Stripe holds it; none when billing is off (no payment is taken). */
async function priceLabels(): Promise<Map<PlanId, string> | undefined> {
  const billing = config().billing;
  if (!billing.enabled) return undefined;
  const prices = await planPrices(billing);
  return new Map(
    prices.map((p) => [
      p.plan,
      p.plan === "free_trial" ? "Free" : p.amount === undefined ? "" : `${formatAmount(p.amount, p.currency)} a month`,
    ]),
  );
}

export default async function Home() {
  const prices = await priceLabels();
  return (
    <main id="main" className="mx-auto max-w-5xl px-4 py-10 sm:px-6 sm:py-16">
      {/* Words never break: on a narrow phone the links move under the name instead. */}
      <header className="flex flex-wrap items-center justify-between gap-x-4 gap-y-2 whitespace-nowrap">
        <span className="shrink-0 text-lg font-semibold tracking-tight">SheetAPI</span>
        <nav className="flex items-center gap-3 text-sm sm:gap-4">
          <a
            href="#plans"
            className="inline-flex min-h-11 items-center text-slate-600 hover:text-slate-900 sm:min-h-0 dark:text-slate-400 dark:hover:text-white"
            data-testid="plans-link"
          >
            Plans
          </a>
          <Link
            href="/docs"
            className="inline-flex min-h-11 items-center text-slate-600 hover:text-slate-900 sm:min-h-0 dark:text-slate-400 dark:hover:text-white"
            data-testid="docs-link"
          >
            Docs
          </Link>
          <Link
            href="/dashboard"
            className="inline-flex min-h-11 items-center rounded-md bg-emerald-700 px-3 py-1.5 font-medium text-white hover:bg-emerald-800 sm:min-h-0"
            data-testid="sign-in"
          >
            Sign in / Dashboard
          </Link>
        </nav>
      </header>

      <section className="mt-12 max-w-3xl sm:mt-20">
        <h1 className="text-4xl font-bold tracking-tight sm:text-5xl">Your Google Sheet, as a real REST API.</h1>
        <p className="mt-6 text-lg text-slate-600 dark:text-slate-300">
          Register a spreadsheet, create an API key, and every tab becomes a JSON collection your apps, scripts and
          static sites can read and write, with rate limits, usage charts and generated docs.
        </p>
        <pre
          tabIndex={0}
          className="mt-8 overflow-x-auto rounded-lg bg-slate-900 p-4 font-mono text-sm text-emerald-300 whitespace-pre-wrap [overflow-wrap:anywhere]"
        >
          {`curl -H "X-API-Key: $KEY" "${config().appUrl}/api/v1/{sheetId}/Products?filter=in_stock=TRUE&sort=price"`}
        </pre>
        {/* The same page signed in or not: the dashboard signs a visitor in first when needed. */}
        <div className="mt-8 flex flex-col gap-3 sm:flex-row">
          <Link
            href="/dashboard"
            className="inline-flex min-h-11 items-center justify-center rounded-md bg-emerald-700 px-5 py-2.5 font-medium text-white hover:bg-emerald-800"
            data-testid="get-started"
          >
            Get started: register a sheet
          </Link>
          <Link
            href="/docs"
            className="inline-flex min-h-11 items-center justify-center rounded-md border border-slate-300 px-5 py-2.5 font-medium hover:bg-slate-50 dark:border-slate-700 dark:hover:bg-slate-900"
          >
            Read the guide
          </Link>
        </div>
      </section>

      <section className="mt-16 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
        {FEATURES.map((f) => (
          <div key={f.title} className="rounded-lg border border-slate-200 p-5 dark:border-slate-800">
            <h2 className="font-semibold">{f.title}</h2>
            <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">{f.body}</p>
          </div>
        ))}
      </section>

      <section id="plans" className="mt-16 scroll-mt-4" data-testid="plans">
        <h2 className="text-2xl font-bold tracking-tight">Plans</h2>
        <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">
          Limits are per account, shared by all its keys and sheets. Every account starts on the Free Trial;{" "}
          {prices
            ? "upgrade at any time from the dashboard through Stripe Checkout, effective as soon as the payment is confirmed."
            : "change plan at any time from the dashboard, effective at once (no payment is taken on this service)."}{" "}
          Answers Google fails (5xx) and refusals for a limit (429) are not counted.
        </p>
        <div className="mt-6 grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
          {(Object.entries(PLANS) as [PlanId, (typeof PLANS)[PlanId]][]).map(([id, p]) => (
            <div key={p.label} className="rounded-lg border border-slate-200 p-5 dark:border-slate-800">
              <h3 className="font-semibold">{p.label}</h3>
              {prices?.get(id) && (
                <p className="text-sm font-medium" data-testid={`plan-price-${id}`}>
                  {prices.get(id)}
                </p>
              )}
              <p className="mt-2 text-2xl font-bold">{count(p.month)}</p>
              <p className="text-xs text-slate-500 dark:text-slate-400">requests a month</p>
              <ul className="mt-3 space-y-1 text-sm text-slate-600 dark:text-slate-400">
                <li>{count(p.day)} a day</li>
                <li>{count(p.hour)} an hour</li>
                <li>bursts of {count(p.burst)} a minute</li>
              </ul>
            </div>
          ))}
        </div>
      </section>
    </main>
  );
}
