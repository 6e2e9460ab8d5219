import { sql } from "drizzle-orm";
import { getDb } from "../client";
import { tabIdMarks } from "../schema";

/**
 * Hands out `count` consecutive ids above max(the tab's mark, `floor`) and moves the mark to the
 * last of them, in one atomic statement (concurrent creates on any instance never get the same
 * ids). `count` 0 only raises the mark to `floor`. `first`: the tab had no mark before.
 */
export async function allocateIds(sheetId: string, tab: string, floor: number, count: number): Promise<{ last: number; first: boolean }> {
  const [row] = await getDb()
    .insert(tabIdMarks)
    .values({ sheetId, tab, lastId: floor + count })
    .onConflictDoUpdate({
      target: [tabIdMarks.sheetId, tabIdMarks.tab],
      set: { lastId: sql`greatest(${tabIdMarks.lastId}, ${floor}) + ${count}`, updatedAt: sql`now()` },
    })
    // xmax is 0 on a row this statement inserted, and set on one it updated (a Postgres detail
    // that PGlite, being Postgres, shares).
    .returning({ last: tabIdMarks.lastId, first: sql<boolean>`(xmax = 0)` });
  return { last: Number(row!.last), first: Boolean(row!.first) };
}
