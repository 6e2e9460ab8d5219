// Deliveries of change events to endpoints, their attempts and the delivery log. A stream is an
// endpoint's deliveries of one row (or one tab's schema), sent oldest first.
import { and, count, desc, eq, inArray, sql } from "drizzle-orm";
import { getDb, rowsOf, type Database } from "../client";
import {
  changeEvents,
  webhookAttempts,
  webhookDeliveries,
  type ChangeEvent,
  type NewWebhookDelivery as NewDelivery,
  type WebhookDelivery,
} from "../schema";

type StreamRef = { endpointId: string; stream: string };

export async function insertDeliveries(rows: NewDelivery[], db: Database = getDb()): Promise<void> {
  if (rows.length) await db.insert(webhookDeliveries).values(rows);
}

/** Leases the stream's oldest undelivered delivery for `leaseS` if it is due and no one holds it. */
export async function claimStreamHead({
  endpointId,
  stream,
  leaseS,
}: StreamRef & { leaseS: number }): Promise<WebhookDelivery | undefined> {
  const rows = await getDb().execute(sql`
    update webhook_deliveries d set leased_until = now() + make_interval(secs => ${leaseS})
    from (select id from webhook_deliveries where endpoint_id = ${endpointId} and stream = ${stream} and state = 'pending' order by event_seq limit 1) head
    where d.id = head.id and (d.leased_until is null or d.leased_until < now()) and d.next_attempt_at <= now()
    returning d.id`);
  const id = rowsOf<{ id: string }>(rows)[0]?.id;
  if (!id) return undefined;
  const [delivery] = await getDb().select().from(webhookDeliveries).where(eq(webhookDeliveries.id, id));
  return delivery;
}

/** One of the endpoint's deliveries; undefined when the endpoint has no such delivery. */
export async function getDeliveryOfEndpoint(
  { endpointId, id }: { endpointId: string; id: string },
  db: Database = getDb(),
): Promise<WebhookDelivery | undefined> {
  const [delivery] = await db
    .select()
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.id, id), eq(webhookDeliveries.endpointId, endpointId)));
  return delivery;
}

/** How many of the endpoint's deliveries wait to be sent. */
export async function countPendingDeliveries(
  { endpointId }: { endpointId: string },
  db: Database = getDb(),
): Promise<number> {
  const [pending] = await db
    .select({ n: count() })
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.endpointId, endpointId), eq(webhookDeliveries.state, "pending")));
  return Number(pending?.n ?? 0);
}

/** Notes an attempt: its row in the log, and the delivery's new state. */
export async function recordDeliveryAttempt({
  id,
  attempt,
  set,
}: {
  id: string;
  attempt: Omit<typeof webhookAttempts.$inferInsert, "deliveryId">;
  set: Partial<Omit<NewDelivery, "id">>;
}): Promise<void> {
  const db = getDb();
  await db.insert(webhookAttempts).values({ deliveryId: id, ...attempt });
  await db.update(webhookDeliveries).set(set).where(eq(webhookDeliveries.id, id));
}

/** Cancels the stream's waiting deliveries. */
export async function cancelPendingStream({ endpointId, stream }: StreamRef): Promise<void> {
  await getDb()
    .update(webhookDeliveries)
    .set({ state: "cancelled", leasedUntil: null })
    .where(
      and(
        eq(webhookDeliveries.endpointId, endpointId),
        eq(webhookDeliveries.stream, stream),
        eq(webhookDeliveries.state, "pending"),
      ),
    );
}

/** The streams with a waiting delivery (of one endpoint, or of all). */
export async function pendingStreams({ endpointId }: { endpointId?: string } = {}): Promise<StreamRef[]> {
  return getDb()
    .selectDistinct({ endpointId: webhookDeliveries.endpointId, stream: webhookDeliveries.stream })
    .from(webhookDeliveries)
    .where(
      and(
        eq(webhookDeliveries.state, "pending"),
        endpointId ? eq(webhookDeliveries.endpointId, endpointId) : undefined,
      ),
    );
}

/** The endpoint's most recent deliveries with their events, newest first, and each one's last attempt's headers. */
export async function recentDeliveries({
  endpointId,
  limit,
}: {
  endpointId: string;
  limit: number;
}): Promise<{ d: WebhookDelivery; e: ChangeEvent; headers: Record<string, string> | null }[]> {
  const rows = await getDb()
    .select({ d: webhookDeliveries, e: changeEvents })
    .from(webhookDeliveries)
    .innerJoin(changeEvents, eq(changeEvents.seq, webhookDeliveries.eventSeq))
    .where(eq(webhookDeliveries.endpointId, endpointId))
    .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.eventSeq))
    .limit(limit);
  const ids = rows.map(({ d }) => d.id);
  const attempts = ids.length
    ? await getDb()
        .select({ deliveryId: webhookAttempts.deliveryId, headers: webhookAttempts.requestHeaders })
        .from(webhookAttempts)
        .where(inArray(webhookAttempts.deliveryId, ids))
        .orderBy(webhookAttempts.id)
    : [];
  const lastHeaders = new Map(attempts.map((a) => [a.deliveryId, a.headers as Record<string, string>]));
  return rows.map((r) => ({ ...r, headers: lastHeaders.get(r.d.id) ?? null }));
}

/** Backlog and progress of deliveries (of one sheet's endpoints, or of all), as Postgres counts them. */
export async function deliveryCounts({ sheetId }: { sheetId?: string } = {}): Promise<Record<string, unknown>> {
  const scope = sheetId ? sql`and e.sheet_id = ${sheetId}` : sql``;
  const result = await getDb().execute(sql`
    select
      count(*) filter (where d.state = 'pending')::int as pending,
      count(*) filter (where d.state = 'pending' and d.next_attempt_at <= now())::int as due,
      count(*) filter (where d.state = 'pending' and d.attempts > 0)::int as retrying,
      count(*) filter (where d.state = 'failed')::int as failed,
      count(*) filter (where d.state = 'delivered' and d.delivered_at > now() - interval '1 hour')::int as delivered_last_hour,
      extract(epoch from now() - min(d.created_at) filter (where d.state = 'pending'))::float as oldest_pending_seconds
    from webhook_deliveries d join webhook_endpoints e on e.id = d.endpoint_id
    where true ${scope}`);
  return rowsOf(result)[0] ?? {};
}
