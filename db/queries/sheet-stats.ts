import { and, eq, gte, sql } from "drizzle-orm";
import { getDb, type Database } from "../client";
import { sheetStatsDaily, type SheetStatsRow } from "../schema";

/** Adds a batch of counts; rows of the same sheet and day are summed. */
export async function addSheetStats(rows: SheetStatsRow[], db: Database = getDb()): Promise<void> {
  if (!rows.length) return;
  const add = (column: keyof typeof sheetStatsDaily.$inferSelect) =>
    sql.raw(`"sheet_stats_daily"."${sheetStatsDaily[column].name}" + excluded."${sheetStatsDaily[column].name}"`);
  await db
    .insert(sheetStatsDaily)
    .values(rows)
    .onConflictDoUpdate({
      target: [sheetStatsDaily.sheetId, sheetStatsDaily.day],
      set: {
        googleCalls: add("googleCalls"),
        cacheHits: add("cacheHits"),
        cacheMisses: add("cacheMisses"),
        staleServed: add("staleServed"),
      },
    });
}

/** A sheet's stats per day from `from` (YYYY-MM-DD, UTC) on. */
export async function sheetStats({ sheetId, from }: { sheetId: string; from: string }) {
  return getDb()
    .select()
    .from(sheetStatsDaily)
    .where(and(eq(sheetStatsDaily.sheetId, sheetId), gte(sheetStatsDaily.day, from)))
    .orderBy(sheetStatsDaily.day);
}
