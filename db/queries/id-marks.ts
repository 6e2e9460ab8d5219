import { and, eq, inArray, sql } from "drizzle-orm";
import { getDb } from "../client";
import { tabIdMarks } from "../schema";

type Tab = { gid: number; name: string };

// A tab's mark is kept under its gid, which a rename keeps, and under its current name, which
// instances of the earlier release (and marks written before gids, copied by migration 0011) go
// by. A read takes the larger: either key can only raise what a tab is known to have handed out,
// never lower it, so a new tab given an old one's name goes on above the old one's ids.
const markKey = (tab: Tab) => `gid:${tab.gid}`;
const keysOf = (tab: Tab) => [...new Set([markKey(tab), tab.name])];

/** The largest id the tab is known to have handed out or held; 0 when none is marked. */
export async function idMark(sheetId: string, tab: Tab): Promise<number> {
  const [row] = await getDb()
    .select({ last: sql<string | null>`max(${tabIdMarks.lastId})` })
    .from(tabIdMarks)
    .where(and(eq(tabIdMarks.sheetId, sheetId), inArray(tabIdMarks.tab, keysOf(tab))));
  return row?.last ? Number(row.last) : 0;
}

/** Raises the tab's mark to `last` (never lowers it: concurrent writers may finish in any order). */
export async function raiseIdMark(sheetId: string, tab: Tab, last: number): Promise<void> {
  await getDb()
    .insert(tabIdMarks)
    .values(keysOf(tab).map((key) => ({ sheetId, tab: key, lastId: last })))
    .onConflictDoUpdate({
      target: [tabIdMarks.sheetId, tabIdMarks.tab],
      set: { lastId: sql`greatest(${tabIdMarks.lastId}, excluded.last_id)`, updatedAt: sql`now()` },
    });
}
