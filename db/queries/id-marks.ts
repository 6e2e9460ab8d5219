import { and, eq, sql } from "drizzle-orm";
import { getDb } from "../client";
import { tabIdMarks } from "../schema";

/** The largest id the tab is known to have handed out or held; 0 when none is marked. */
export async function idMark(sheetId: string, tab: string): Promise<number> {
  const [row] = await getDb().select({ last: tabIdMarks.lastId }).from(tabIdMarks).where(and(eq(tabIdMarks.sheetId, sheetId), eq(tabIdMarks.tab, tab)));
  return row ? Number(row.last) : 0;
}

/** Raises the tab's mark to `last` (never lowers it: concurrent writers may finish in any order). */
export async function raiseIdMark(sheetId: string, tab: string, last: number): Promise<void> {
  await getDb()
    .insert(tabIdMarks)
    .values({ sheetId, tab, lastId: last })
    .onConflictDoUpdate({ target: [tabIdMarks.sheetId, tabIdMarks.tab], set: { lastId: sql`greatest(${tabIdMarks.lastId}, ${last})`, updatedAt: sql`now()` } });
}
