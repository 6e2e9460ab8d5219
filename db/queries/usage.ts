import { and, eq, gte, inArray, lt, sql } from "drizzle-orm";
import { getDb, type Database } from "../client";
import { apiKeys, sheets, usageDaily, usageRollups, users, type SheetStatsRow, type UsageRow } from "../schema";
import { addSheetStats } from "./sheet-stats";

/** Adds a batch of counts; rows for the same account, sheet, key, day and class are summed. */
export async function addUsage(rows: UsageRow[], db: Database = getDb()): Promise<void> {
  if (!rows.length) return;
  await db
    .insert(usageDaily)
    .values(rows)
    .onConflictDoUpdate({
      target: [usageDaily.userId, usageDaily.sheetId, usageDaily.keyId, usageDaily.day, usageDaily.statusClass],
      set: { count: sql`${usageDaily.count} + excluded.count` },
    });
}

/** What one batch of the limit store's ledger holds (lib/usage/ledger-fields.ts). */
export interface LedgerBatch {
  usage: UsageRow[];
  stats: SheetStatsRow[];
  lastUsed: { keyId: string; at: Date }[];
}

/**
 * Adds a batch rolled up from the limit store's ledger, once: its id goes in with its counts, in
 * one transaction, so a batch rolled up a second time (by another instance at the same moment, or
 * after a roller died before dropping it) adds nothing. False when it was already added. Counts of
 * an account or sheet deleted since are left out (they have nowhere to go, and must not hold the
 * batch back); a key's last use only ever moves forward.
 */
export async function addLedgerBatch(id: string, { usage, stats, lastUsed }: LedgerBatch): Promise<boolean> {
  return getDb().transaction(async (tx) => {
    const first = await tx.insert(usageRollups).values({ id }).onConflictDoNothing().returning({ id: usageRollups.id });
    if (!first.length) return false;
    const liveUsers = await existingIds(
      tx,
      "users",
      usage.map((r) => r.userId),
    );
    const liveSheets = await existingIds(
      tx,
      "sheets",
      stats.map((r) => r.sheetId),
    );
    await addUsage(
      usage.filter((r) => liveUsers.has(r.userId)),
      tx,
    );
    await addSheetStats(
      stats.filter((r) => liveSheets.has(r.sheetId)),
      tx,
    );
    if (lastUsed.length) {
      const stamps = sql.join(
        lastUsed.map((u) => sql`(${u.keyId}, ${u.at.toISOString()}::timestamptz)`),
        sql`, `,
      );
      await tx.execute(
        sql`update api_keys set last_used_at = greatest(api_keys.last_used_at, v.at) from (values ${stamps}) as v(id, at) where api_keys.id = v.id`,
      );
    }
    return true;
  });
}

/** Which of `ids` are still rows of `table`. */
async function existingIds(db: Database, table: "users" | "sheets", ids: string[]): Promise<Set<string>> {
  if (!ids.length) return new Set();
  const id = table === "users" ? users.id : sheets.id;
  const rows = await db
    .select({ id })
    .from(table === "users" ? users : sheets)
    .where(inArray(id, [...new Set(ids)]));
  return new Set(rows.map((r) => r.id));
}

type Range = { userId: string; from: string; to: string };
const inRange = ({ userId, from, to }: Range) =>
  and(eq(usageDaily.userId, userId), gte(usageDaily.day, from), lt(usageDaily.day, to));

/** Requests per day (YYYY-MM-DD, UTC) and status class for an account, `from` inclusive, `to` exclusive. */
export async function usageByDay(range: Range) {
  return getDb()
    .select({
      day: usageDaily.day,
      statusClass: usageDaily.statusClass,
      count: sql<number>`sum(${usageDaily.count})::int`,
    })
    .from(usageDaily)
    .where(inRange(range))
    .groupBy(usageDaily.day, usageDaily.statusClass)
    .orderBy(usageDaily.day, usageDaily.statusClass);
}

/** Requests per day and key (with the key's name, prefix, sheet and whether it is revoked) in the given status classes. */
export async function usageByKey(range: Range & { classes: readonly string[] }) {
  return (
    getDb()
      .select({
        day: usageDaily.day,
        keyId: usageDaily.keyId,
        name: apiKeys.name,
        prefix: apiKeys.displayPrefix,
        revoked: sql<boolean>`${apiKeys.revokedAt} is not null`,
        sheet: sheets.name,
        count: sql<number>`sum(${usageDaily.count})::int`,
      })
      .from(usageDaily)
      .leftJoin(apiKeys, eq(apiKeys.id, usageDaily.keyId))
      // The sheet's name while it is still this account's (another account may have claimed it since).
      .leftJoin(sheets, and(eq(sheets.id, usageDaily.sheetId), eq(sheets.userId, usageDaily.userId)))
      .where(and(inRange(range), inArray(usageDaily.statusClass, [...range.classes])))
      .groupBy(usageDaily.day, usageDaily.keyId, apiKeys.name, apiKeys.displayPrefix, apiKeys.revokedAt, sheets.name)
      .orderBy(usageDaily.day, usageDaily.keyId)
  );
}

/** Total requests of an account in the given status classes over a range of days. */
export async function usageTotal(range: Range & { classes: readonly string[] }): Promise<number> {
  const [row] = await getDb()
    .select({ count: sql<number>`coalesce(sum(${usageDaily.count}), 0)::int` })
    .from(usageDaily)
    .where(and(inRange(range), inArray(usageDaily.statusClass, [...range.classes])));
  return row?.count ?? 0;
}
