// A tracked sheet's change events, the tab copies they are produced from (tab_snapshots) and
// whether the sheet is tracked at all (change_tracking).
import { and, asc, count, eq, gt, gte, inArray, lte, sql } from "drizzle-orm";
import { getDb, rowsOf, type Database } from "../client";
import { changeEvents, changeTracking, tabSnapshots, type ChangeEvent } from "../schema";

type Tab = { sheetId: string; tab: string };
const ofTab = ({ sheetId, tab }: Tab) => and(eq(tabSnapshots.sheetId, sheetId), eq(tabSnapshots.tab, tab));

export async function isSheetTracked({ sheetId }: { sheetId: string }): Promise<boolean> {
  const rows = await getDb()
    .select({ id: changeTracking.sheetId })
    .from(changeTracking)
    .where(eq(changeTracking.sheetId, sheetId))
    .limit(1);
  return rows.length > 0;
}

export async function trackSheet({ sheetId }: { sheetId: string }): Promise<void> {
  await getDb().insert(changeTracking).values({ sheetId }).onConflictDoNothing();
}

/** The tab's stored copy's time and digest, its row locked in the transaction `db`. */
export async function lockTabSnapshot(
  tab: Tab,
  db: Database,
): Promise<{ observedAt: Date; digest: string } | undefined> {
  const [stored] = await db
    .select({ observedAt: tabSnapshots.observedAt, digest: tabSnapshots.digest })
    .from(tabSnapshots)
    .where(ofTab(tab))
    .for("update");
  return stored;
}

/** The text of the tab's stored copy. */
export async function tabSnapshotContent(tab: Tab, db: Database = getDb()): Promise<string | undefined> {
  return (await db.select({ content: tabSnapshots.content }).from(tabSnapshots).where(ofTab(tab)))[0]?.content;
}

export async function saveTabSnapshot(
  { sheetId, tab, observedAt, digest, content }: Tab & { observedAt: Date; digest: string; content: string },
  db: Database = getDb(),
): Promise<void> {
  await db
    .insert(tabSnapshots)
    .values({ sheetId, tab, observedAt, digest, content })
    .onConflictDoUpdate({ target: [tabSnapshots.sheetId, tabSnapshots.tab], set: { observedAt, digest, content } });
}

export async function insertChangeEvents(
  rows: (typeof changeEvents.$inferInsert)[],
  db: Database = getDb(),
): Promise<{ seq: number; type: string; rowId: string | null }[]> {
  return db
    .insert(changeEvents)
    .values(rows)
    .returning({ seq: changeEvents.seq, type: changeEvents.type, rowId: changeEvents.rowId });
}

/** The sheet's events after `after` (by seq), oldest first, of one type and tab when given. */
export async function listChangeEvents({
  sheetId,
  after,
  type,
  tab,
  limit,
}: {
  sheetId: string;
  after: number;
  type: string | null;
  tab: string | null;
  limit: number;
}): Promise<ChangeEvent[]> {
  return getDb()
    .select()
    .from(changeEvents)
    .where(
      and(
        eq(changeEvents.sheetId, sheetId),
        gt(changeEvents.seq, after),
        type ? eq(changeEvents.type, type) : undefined,
        tab !== null ? eq(changeEvents.tab, tab) : undefined,
      ),
    )
    .orderBy(asc(changeEvents.seq))
    .limit(limit);
}

/** Which of the sheet's events a replay sends: in a time range, of the given types and tabs (all when empty). */
type EventRange = { sheetId: string; from: Date; to: Date; types: string[]; tabs: string[] };
const inRange = ({ sheetId, from, to, types, tabs }: EventRange) =>
  and(
    eq(changeEvents.sheetId, sheetId),
    gte(changeEvents.createdAt, from),
    lte(changeEvents.createdAt, to),
    types.length ? inArray(changeEvents.type, types) : undefined,
    tabs.length ? inArray(changeEvents.tab, tabs) : undefined,
  );

/** The range's first `limit` events, oldest first. */
export async function eventsInRange(
  range: EventRange & { limit: number },
  db: Database = getDb(),
): Promise<{ seq: number; tab: string; rowId: string | null }[]> {
  return db
    .select({ seq: changeEvents.seq, tab: changeEvents.tab, rowId: changeEvents.rowId })
    .from(changeEvents)
    .where(inRange(range))
    .orderBy(changeEvents.seq)
    .limit(range.limit);
}

export async function countEventsInRange(range: EventRange, db: Database = getDb()): Promise<number> {
  return Number((await db.select({ n: count() }).from(changeEvents).where(inRange(range)))[0]?.n ?? 0);
}

export async function countSheetEvents({ sheetId }: { sheetId: string }): Promise<number> {
  const [row] = await getDb()
    .select({ n: sql<number>`count(*)::int` })
    .from(changeEvents)
    .where(eq(changeEvents.sheetId, sheetId));
  return row?.n ?? 0;
}

/** Removes up to `batch` events created before `cutoff` that no endpoint still waits for; answers how many. */
export async function deleteEventsBefore({ cutoff, batch }: { cutoff: Date; batch: number }): Promise<number> {
  const result = await getDb().execute(sql`
    delete from change_events where seq in (
      select e.seq from change_events e
      where e.created_at < ${cutoff.toISOString()}::timestamptz
        and not exists (select 1 from webhook_deliveries d where d.event_seq = e.seq and d.state = 'pending')
      order by e.seq
      limit ${batch}
    ) returning seq`);
  return rowsOf(result).length;
}

export async function getChangeEvent({ seq }: { seq: number }): Promise<ChangeEvent | undefined> {
  const [event] = await getDb().select().from(changeEvents).where(eq(changeEvents.seq, seq));
  return event;
}
