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

export async function saveSheetSchema({ id, schema, at, name }: { id: string; schema: unknown; at: Date; name?: string }): Promise<void> {
  await getDb().update(sheets).set({ schema, schemaUpdatedAt: at, ...(name ? { name } : {}) }).where(eq(sheets.id, id));
}

export async function setSheetNeedsReauth({ id, needsReauth }: { id: string; needsReauth: boolean }): Promise<void> {
  await getDb().update(sheets).set({ needsReauth }).where(eq(sheets.id, id));
}

/** A new owner grant for a private sheet: the encrypted refresh token replaces the old one. */
export async function saveSheetGrant(input: { id: string; userId: string; refreshTokenCiphertext: string; grantEmail: string; writable: boolean }): Promise<void> {
  await getDb()
    .update(sheets)
    .set({ access: "oauth", refreshTokenCiphertext: input.refreshTokenCiphertext, grantEmail: input.grantEmail, writable: input.writable, needsReauth: false })
    .where(and(eq(sheets.id, input.id), eq(sheets.userId, input.userId)));
}
