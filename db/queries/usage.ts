import { and, eq, gte, lt, sql } from "drizzle-orm";
import { getDb } from "../client";
import { usageDaily, type UsageRow } from "../schema";

/** Adds a batch of counts; rows for the same account, sheet, key, day and class are summed. */
export async function addUsage(rows: UsageRow[]): Promise<void> {
  if (!rows.length) return;
  await getDb()
    .insert(usageDaily)
    .values(rows)
    .onConflictDoUpdate({
      target: [usageDaily.userId, usageDaily.sheetId, usageDaily.keyId, usageDaily.day, usageDaily.statusClass],
      set: { count: sql`${usageDaily.count} + excluded.count` },
    });
}

/** Requests per day (YYYY-MM-DD, UTC) and status class for an account, `from` inclusive, `to` exclusive. */
export async function usageByDay({ userId, from, to }: { userId: string; from: string; to: string }) {
  return getDb()
    .select({ day: usageDaily.day, statusClass: usageDaily.statusClass, count: sql<number>`sum(${usageDaily.count})::int` })
    .from(usageDaily)
    .where(and(eq(usageDaily.userId, userId), gte(usageDaily.day, from), lt(usageDaily.day, to)))
    .groupBy(usageDaily.day, usageDaily.statusClass)
    .orderBy(usageDaily.day, usageDaily.statusClass);
}
