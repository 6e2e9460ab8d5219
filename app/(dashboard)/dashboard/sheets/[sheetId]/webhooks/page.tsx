import type { Metadata } from "next";
import { BackLink } from "../../../back-link";
import { notFound } from "next/navigation";
import { getSheetForUser } from "@/db/queries/sheets";
import { getUserById } from "@/db/queries/users";
import { requireUser } from "@/lib/auth/session";
import { planOf } from "@/lib/plans";
import { getSheetModel } from "@/lib/sheets/read/schema";
import { toSheetRecord } from "@/lib/sheets/sheet-record";
import { EVENT_TYPES } from "@/lib/webhooks/diff";
import { deliveryLog, deliveryProgress, listEndpoints } from "@/lib/webhooks/endpoints";
import { planLimits } from "@/lib/plans";
import { AddEndpointForm, EndpointCard, type EndpointView } from "./webhooks-panel";
import { sheetPageTitle } from "../title";
import { acceptedTargetsText } from "@/lib/webhooks/target";
import { AutoRefresh } from "@/app/components/auto-refresh";

export function generateMetadata({ params }: { params: Promise<{ sheetId: string }> }): Promise<Metadata> {
  return params.then(({ sheetId }) => sheetPageTitle(sheetId, "webhooks"));
}

export const dynamic = "force-dynamic";

export default async function WebhooksPage({ params }: { params: Promise<{ sheetId: string }> }) {
  const { sheetId } = await params;
  const user = await requireUser(`/dashboard/sheets/${sheetId}/webhooks`);
  const sheet = await getSheetForUser({ id: sheetId, userId: user.id });
  if (!sheet) notFound();
  const plan = (await getUserById({ id: user.id }))?.plan ?? "free_trial";
  const allowed = planLimits(plan).endpointsPerSheet;
  const tabs = await getSheetModel(toSheetRecord(sheet))
    .then((m) => m.tabs.map((t) => t.name))
    .catch(() => [] as string[]);
  const [endpoints, progress] = await Promise.all([listEndpoints(sheet.id), deliveryProgress(sheet.id)]);
  const views: EndpointView[] = await Promise.all(
    endpoints.map(async (e) => ({
      id: e.id,
      url: e.url,
      events: e.events,
      tabs: e.tabs,
      enabled: e.enabled,
      disabledReason: e.disabledReason,
      failingSince: e.failingSince?.toISOString() ?? null,
      log: (await deliveryLog(sheet.id, e.id, 25)).map((d) => ({
        id: d.id,
        state: d.state,
        attempts: d.attempts,
        status: d.lastStatus,
        latencyMs: d.lastLatencyMs,
        error: d.lastError,
        response: d.lastResponse,
        requestHeaders: d.requestHeaders,
        nextAttemptAt: d.nextAttemptAt.toISOString(),
        createdAt: d.createdAt.toISOString(),
        event: {
          id: d.event.id,
          type: d.event.type,
          tab: d.event.tab,
          rowId: d.event.rowId,
          source: d.event.source,
          body: JSON.stringify(
            { type: d.event.type, timestamp: d.event.createdAt.toISOString(), data: d.event.data },
            null,
            2,
          ),
        },
      })),
    })),
  );

  return (
    <div className="space-y-8">
      <div className="min-w-0">
        <BackLink href={`/dashboard/sheets/${sheet.id}`}>{sheet.name}</BackLink>
        <h1 className="mt-2 text-2xl font-bold">Webhooks</h1>
        <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
          Each change to a row becomes an event (<code>row.created</code>, <code>row.updated</code> with the changed
          columns, <code>row.deleted</code>, <code>schema.changed</code>), sent to your endpoints as a signed POST
          following Standard Webhooks. Writes through the API are sent at once; edits made in Google Sheets when the
          service next reads the tab (within the cache TTL). Deduplicate by <code>webhook-id</code>; verify{" "}
          <code>webhook-signature</code> with your endpoint&apos;s secret. A failed delivery is retried with backoff for
          a day, then given up (each row&apos;s events stay in order); an endpoint that has failed for three days in a
          row is disabled. Webhooks count toward nothing on your plan.
        </p>
        <p className="mt-1 text-xs text-slate-500 dark:text-slate-400">This page updates itself every 5 seconds.</p>
        <AutoRefresh seconds={5} />
      </div>

      <section
        className="space-y-2 rounded-lg border border-slate-200 p-4 sm:p-6 dark:border-slate-800"
        data-testid="webhook-progress"
      >
        <h2 className="text-lg font-semibold">Deliveries</h2>
        <dl className="grid grid-cols-2 gap-4 text-sm sm:grid-cols-5">
          <div>
            <dt className="text-xs text-slate-500 dark:text-slate-400">Waiting</dt>
            <dd className="font-mono text-lg" data-testid="backlog-pending">
              {progress.pending}
            </dd>
          </div>
          <div>
            <dt className="text-xs text-slate-500 dark:text-slate-400">Retrying</dt>
            <dd className="font-mono text-lg">{progress.retrying}</dd>
          </div>
          <div>
            <dt className="text-xs text-slate-500 dark:text-slate-400">Given up</dt>
            <dd className="font-mono text-lg">{progress.failed}</dd>
          </div>
          <div>
            <dt className="text-xs text-slate-500 dark:text-slate-400">Delivered, last hour</dt>
            <dd className="font-mono text-lg" data-testid="delivered-last-hour">
              {progress.delivered_last_hour}
            </dd>
          </div>
          <div>
            <dt className="text-xs text-slate-500 dark:text-slate-400">Oldest waiting</dt>
            <dd className="font-mono text-lg">
              {progress.oldest_pending_seconds === null ? "–" : `${progress.oldest_pending_seconds} s`}
            </dd>
          </div>
        </dl>
      </section>

      <section className="space-y-3 rounded-lg border border-slate-200 p-4 sm:p-6 dark:border-slate-800">
        <h2 className="text-lg font-semibold">Add an endpoint</h2>
        <p className="text-sm text-slate-600 dark:text-slate-400" data-testid="endpoint-allowance">
          {endpoints.length} of {allowed} endpoint{allowed === 1 ? "" : "s"} on the {planOf(plan).label} plan.{" "}
          {acceptedTargetsText()}
        </p>
        <AddEndpointForm
          sheetId={sheet.id}
          tabs={tabs}
          eventTypes={[...EVENT_TYPES]}
          full={endpoints.length >= allowed}
        />
      </section>

      <section className="space-y-4" data-testid="endpoints">
        {views.length === 0 ? (
          <p className="text-sm text-slate-500 dark:text-slate-400">No endpoints yet.</p>
        ) : (
          views.map((v) => (
            <EndpointCard key={v.id} sheetId={sheet.id} endpoint={v} tabs={tabs} eventTypes={[...EVENT_TYPES]} />
          ))
        )}
      </section>
    </div>
  );
}
