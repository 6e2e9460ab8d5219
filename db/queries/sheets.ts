import { and, asc, eq } from "drizzle-orm";
import { getDb } from "../client";
import { sheets, type NewSheet, type Sheet } from "../schema";

export async function insertSheet(input: NewSheet): Promise<Sheet> {
  const [sheet] = await getDb().insert(sheets).values(input).returning();
  return sheet!;
}

/** Any account's sheet: for the API, which finds the owner through the key. */
export async function getSheet({ id }: { id: string }): Promise<Sheet | undefined> {
  return getDb().query.sheets.findFirst({ where: eq(sheets.id, id) });
}

export async function getSheetForUser({ id, userId }: { id: string; userId: string }): Promise<Sheet | undefined> {
  return getDb().query.sheets.findFirst({ where: and(eq(sheets.id, id), eq(sheets.userId, userId)) });
}

export async function listSheets({ userId }: { userId: string }): Promise<Sheet[]> {
  return getDb().select().from(sheets).where(eq(sheets.userId, userId)).orderBy(asc(sheets.createdAt));
}

export async function saveSheetSchema({ id, schema, at }: { id: string; schema: unknown; at: Date }): Promise<void> {
  await getDb().update(sheets).set({ schema, schemaUpdatedAt: at }).where(eq(sheets.id, id));
}
