import { and, eq, inArray, sql } from "drizzle-orm";
import { getDb } from "../client";
import { tabIdMarks } from "../schema";

type Tab = { gid: number; name: string };

// A tab's mark is kept under its gid, which a rename keeps. Marks written before were kept under
// the tab's name; they are still read, so a tab's history from then on carries over. Either key
// can only raise what a tab is known to have handed out, never lower it.
const markKey = (tab: Tab) => `gid:${tab.gid}`;

/** The largest id the tab is known to have handed out or held; 0 when none is marked. */
export async function idMark(sheetId: string, tab: Tab): Promise<number> {
  const [row] = await getDb()
    .select({ last: sql<string | null>`max(${tabIdMarks.lastId})` })
    .from(tabIdMarks)
    .where(and(eq(tabIdMarks.sheetId, sheetId), inArray(tabIdMarks.tab, [markKey(tab), tab.name])));
  return row?.last ? Number(row.last) : 0;
}

/** Raises the tab's mark to `last` (never lowers it: concurrent writers may finish in any order). */
export async function raiseIdMark(sheetId: string, tab: Tab, last: number): Promise<void> {
  await getDb()
    .insert(tabIdMarks)
    .values({ sheetId, tab: markKey(tab), lastId: last })
    .onConflictDoUpdate({ target: [tabIdMarks.sheetId, tabIdMarks.tab], set: { lastId: sql`greatest(${tabIdMarks.lastId}, ${last})`, updatedAt: sql`now()` } });
}
