import type { Metadata } from "next";
import Link from "next/link";
import { LocalTime } from "@/app/components/local-time";
import { BackLink } from "../../back-link";
import { cookies } from "next/headers";
import { notFound } from "next/navigation";
import { getSheetForUser, listClaimsAgainst } from "@/db/queries/sheets";
import { NEW_KEY_COOKIE, readNewKey } from "@/lib/auth/new-key-flash";
import { requireUser } from "@/lib/auth/session";
import { DEFAULT_VISITOR_LIMIT } from "@/lib/keys/browser";
import { listKeysForSheet } from "@/lib/keys/manage";
import { listFormKeys } from "@/lib/keys/form-keys";
import { ApiError } from "@/lib/errors";
import { getSheetModel } from "@/lib/sheets/read/schema";
import { toSheetRecord } from "@/lib/sheets/sheet-record";
import { writesAllowed } from "@/lib/sheets/access/access-lapse";
import { unprovenUntil } from "@/lib/sheets/access/access-check";
import type { SheetModel } from "@/lib/sheets/values/tab-model";
import { dismissNewKeyAction } from "../../actions";
import { FlashKeyNotice } from "../../new-key-notice";
import { KeysPanel } from "../../keys/keys-panel";
import { recentSheetStats } from "@/lib/usage/sheet-stats";
import { config } from "@/lib/env";
import { accountLimits } from "@/lib/limits/accounts";
import { browserLimit, effectivePlan } from "@/lib/limits/limiter";
import { quotaSnapshot } from "@/lib/usage/usage-report";
import { TryIt } from "@/app/docs/[sheetId]/try-it";
import { plural } from "@/app/components/plural";
import { accessLabel } from "../../access-label";
import { ClaimedNotice } from "../../claimed-notice";
import { WritableThroughGrant } from "../../writable-through-grant";
import { QuickStart } from "../../quick-start";
import { QuotaLine } from "../../quota-line";
import { ownerReadAction } from "./actions";
import { CacheSettings } from "./cache-settings";
import { DocsExamples } from "./docs-examples";
import { WriteMode } from "./write-mode";
import { FormsPanel } from "./forms-panel";
import { RefreshSchemaButton } from "./refresh-button";
import { AddIdColumn } from "./add-id-column";
import { AccessLapsedNotice } from "./access-lapsed";
import { sheetPageTitle } from "./title";

export function generateMetadata({ params }: { params: Promise<{ sheetId: string }> }): Promise<Metadata> {
  return params.then(({ sheetId }) => sheetPageTitle(sheetId, "keys and settings"));
}

export const dynamic = "force-dynamic";

export default async function SheetPage({
  params,
  searchParams,
}: {
  params: Promise<{ sheetId: string }>;
  searchParams: Promise<{ through?: string }>;
}) {
  const [{ sheetId }, { through }] = await Promise.all([params, searchParams]);
  const user = await requireUser(`/dashboard/sheets/${sheetId}`);
  const sheet = await getSheetForUser({ id: sheetId, userId: user.id });
  if (!sheet) {
    // Taken by an editor: say so here too, not just "not found".
    const claims = (await listClaimsAgainst({ userId: user.id })).filter((c) => c.sheetId === sheetId);
    if (!claims.length) notFound();
    return (
      <div className="space-y-4">
        <BackLink href="/dashboard">Your sheets</BackLink>
        <ClaimedNotice claims={claims} />
      </div>
    );
  }

  let model: SheetModel | undefined;
  let problem: string | undefined;
  try {
    model = await getSheetModel(toSheetRecord(sheet));
  } catch (err) {
    problem = err instanceof ApiError ? err.message : "The sheet's structure could not be read from Google.";
  }
  const newKey = readNewKey((await cookies()).get(NEW_KEY_COOKIE)?.value, sheet.id);
  const [keys, formKeys, stats, [quota, plan]] = await Promise.all([
    listKeysForSheet({ userId: user.id, sheetId: sheet.id }),
    listFormKeys({ userId: user.id, sheetId: sheet.id }),
    recentSheetStats(sheet.id),
    accountLimits(user.id).then(
      async (account) => [await quotaSnapshot(account), effectivePlan(account.plan)] as const,
    ),
  ]);
  // A new browser key's per-visitor limit starts within what the plan lets browser keys use a minute.
  const visitorLimit = Math.min(DEFAULT_VISITOR_LIMIT, browserLimit(plan.burst));
  const n = (x: number) => x.toLocaleString("en-US");
  const tabs = model?.tabs.map((t) => t.name) ?? [];
  const target = { baseUrl: config().appUrl, sheetId: sheet.id, tab: tabs[0] };

  return (
    <div className="space-y-8">
      <div className="flex flex-col gap-4 sm:flex-row sm:items-start sm:justify-between">
        <div className="min-w-0">
          <BackLink href="/dashboard">Your sheets</BackLink>
          <h1 className="mt-2 text-2xl font-bold break-words" data-testid="sheet-name">
            {sheet.name}
          </h1>
          <p className="font-mono text-xs break-all text-slate-500 dark:text-slate-400">{sheet.id}</p>
          <p className="mt-1 text-sm text-slate-600 dark:text-slate-400" data-testid="sheet-access">
            {sheet.accessState === "suspended" ? "Suspended" : writesAllowed(sheet) ? "Read and write" : "Read-only"} ·{" "}
            {accessLabel(sheet.access, sheet.grantEmail, sheet.serviceAccount)}
          </p>
          {!sheet.writable && sheet.proof === "edit" && <WritableThroughGrant sheetId={sheet.id} />}
        </div>
        <RefreshSchemaButton sheetId={sheet.id} />
      </div>

      {through === "google" && sheet.access === "oauth" && (
        <p
          role="status"
          data-testid="through-google"
          className="rounded-md bg-emerald-50 p-3 text-sm text-emerald-900 dark:bg-emerald-950 dark:text-emerald-100"
        >
          Done: SheetAPI now reaches this sheet with your Google account
          {sheet.grantEmail ? ` (${sheet.grantEmail})` : ""}
          {sheet.writable
            ? ", and API keys with the Write permission can change it."
            : "; Google says that account can only view it, so the sheet stays read-only."}
        </p>
      )}

      <FlashKeyNotice value={newKey} forget={dismissNewKeyAction} target={target} />

      <AccessLapsedNotice
        sheetId={sheet.id}
        state={sheet.accessState}
        email={sheet.grantEmail}
        unprovenUntil={unprovenUntil(sheet)?.toISOString()}
        neverProven={sheet.proof === "none"}
      />

      {sheet.needsReauth && (
        <p
          role="alert"
          data-testid="needs-reauth"
          className="rounded-md bg-red-50 p-3 text-sm text-red-800 dark:bg-red-950 dark:text-red-200"
        >
          Google no longer accepts this sheet&apos;s authorization, so API calls are refused.{" "}
          <a className="font-medium underline" href={`/auth/google?sheet_url=${sheet.id}`}>
            Re-authorize with Google
          </a>
          .
        </p>
      )}
      {problem && (
        <p role="alert" className="rounded-md bg-red-50 p-3 text-sm text-red-800 dark:bg-red-950 dark:text-red-200">
          {problem}
        </p>
      )}

      <section
        className="space-y-3 rounded-lg border border-slate-200 p-4 sm:p-6 dark:border-slate-800"
        data-testid="first-call"
      >
        <h2 className="text-lg font-semibold">Your first API call</h2>
        <QuickStart target={target} />
        <QuotaLine quota={quota} />
      </section>

      <KeysPanel
        sheetId={sheet.id}
        keys={keys}
        target={target}
        quota={quota}
        visitorLimit={visitorLimit}
        tabs={model?.tabs.map((t) => ({ name: t.name, columns: t.columns.map((c) => c.name) })) ?? []}
      />

      {sheet.writable && (
        <FormsPanel
          sheetId={sheet.id}
          baseUrl={config().appUrl}
          keys={formKeys}
          tabs={
            model?.tabs.map((t) => ({ name: t.name, columns: t.columns.map(({ name, type }) => ({ name, type })) })) ??
            []
          }
        />
      )}

      <p className="text-sm" data-testid="webhooks-link">
        <Link href={`/dashboard/sheets/${sheet.id}/webhooks`} className="font-medium underline">
          Webhooks
        </Link>
        : get a signed POST when rows change, through the API or in Google Sheets.
      </p>

      {tabs.length > 0 && (
        <section id="try-it" className="space-y-3" data-testid="owner-try">
          <h2 className="text-lg font-semibold">Try it as the owner</h2>
          <p className="text-sm text-slate-600 dark:text-slate-400">
            Read your sheet here without a key. These reads go through your session, use the same data and cache as the
            API, and do not count against your plan. Apps and scripts use a key, as in the example above.
          </p>
          <TryIt sheetId={sheet.id} tabs={tabs} asOwner={ownerReadAction} />
        </section>
      )}

      <section
        className="space-y-4 rounded-lg border border-slate-200 p-6 dark:border-slate-800"
        data-testid="sheet-stats"
      >
        <h2 className="text-lg font-semibold">Google calls and cache</h2>
        <dl className="grid grid-cols-2 gap-4 text-sm sm:grid-cols-4">
          <div>
            <dt className="text-xs text-slate-500 dark:text-slate-400">Google Sheets calls today</dt>
            <dd className="font-mono text-lg" data-testid="google-calls-today">
              {n(stats.today.googleCalls)}
            </dd>
          </div>
          <div>
            <dt className="text-xs text-slate-500 dark:text-slate-400">Google calls, last 7 days</dt>
            <dd className="font-mono text-lg">{n(stats.total.googleCalls)}</dd>
          </div>
          <div>
            <dt className="text-xs text-slate-500 dark:text-slate-400">Cache hit rate, 7 days</dt>
            <dd className="font-mono text-lg" data-testid="cache-hit-rate">
              {stats.hitRate === null ? "–" : `${(stats.hitRate * 100).toFixed(1)}%`}
            </dd>
          </div>
          <div>
            <dt className="text-xs text-slate-500 dark:text-slate-400">Stale answers, 7 days</dt>
            <dd className="font-mono text-lg">{n(stats.total.staleServed)}</dd>
          </div>
        </dl>
        <p className="text-sm text-slate-600 dark:text-slate-400">
          Writes made through the API show on the next read. Edits made in Google Sheets show within the cache TTL
          below: a cached copy is read again once it is older than that (sooner when Google Drive already reports the
          change, though Drive can lag edits by minutes). <code>Cache-Control: no-cache</code> reads the sheet itself. A
          shorter TTL spends more of the Google quota. While Google is rate limiting or down, reads get the last good
          copy (marked <code>X-Cache: STALE</code>) up to the stale bound.
        </p>
        <CacheSettings
          sheetId={sheet.id}
          cacheTtlSeconds={sheet.cacheTtlSeconds}
          maxStaleSeconds={sheet.maxStaleSeconds}
        />
      </section>

      <section className="space-y-3 rounded-lg border border-slate-200 p-6 dark:border-slate-800">
        <h2 className="text-lg font-semibold">Public docs page</h2>
        <DocsExamples sheetId={sheet.id} docsExamples={sheet.docsExamples} />
      </section>

      {sheet.writable && (
        <section className="space-y-3 rounded-lg border border-slate-200 p-6 dark:border-slate-800">
          <h2 className="text-lg font-semibold">Writes</h2>
          <WriteMode sheetId={sheet.id} userEnteredWrites={sheet.userEnteredWrites} />
        </section>
      )}

      {model && (
        <section className="space-y-6" data-testid="tabs">
          <p className="text-sm text-slate-500 dark:text-slate-400">
            Schema read <LocalTime at={model.updatedAt} shape="second" /> · {plural(model.tabs.length, "tab")}
          </p>
          {model.tabs.map((tab) => (
            <div key={tab.name} className="rounded-lg border border-slate-200 dark:border-slate-800" data-testid="tab">
              <div className="flex items-center justify-between border-b border-slate-200 px-4 py-3 dark:border-slate-800">
                <h2 className="font-semibold" data-testid="tab-name">
                  {tab.name}
                </h2>
                <span className="text-xs text-slate-500 dark:text-slate-400">
                  {tab.hasIdColumn ? "ids from the id column" : "ids are row numbers"}
                </span>
              </div>
              {!tab.hasIdColumn && tab.columns.length > 0 && (
                <AddIdColumn sheetId={sheet.id} tab={tab.name} writable={sheet.writable} />
              )}
              {tab.columns.length === 0 ? (
                <p className="px-4 py-3 text-sm text-slate-500 dark:text-slate-400">
                  No header row: add column names in row 1.
                </p>
              ) : (
                <table className="w-full text-left text-sm">
                  <thead className="text-xs uppercase text-slate-500 dark:text-slate-400">
                    <tr>
                      <th className="px-4 py-2">Column</th>
                      <th className="px-4 py-2">Type</th>
                    </tr>
                  </thead>
                  <tbody>
                    {tab.columns.map((c) => (
                      <tr key={c.name} className="border-t border-slate-100 dark:border-slate-900" data-testid="column">
                        {/* A long name wraps anywhere; the type, one short word, never breaks. */}
                        <td className="px-4 py-2 font-mono [overflow-wrap:anywhere]">{c.name}</td>
                        <td className="px-4 py-2 whitespace-nowrap text-slate-600 dark:text-slate-400">{c.type}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              )}
            </div>
          ))}
        </section>
      )}
    </div>
  );
}
