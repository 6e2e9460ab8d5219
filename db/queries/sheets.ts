import { and, asc, eq, sql } from "drizzle-orm";
import { getDb } from "../client";
import { sheets, type NewSheet, type Sheet } from "../schema";

const bump = { version: sql`${sheets.version} + 1` };

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

export async function saveSheetSchema({ id, schema, at, name }: { id: string; schema: unknown; at: Date; name?: string }): Promise<Sheet | undefined> {
  const [row] = await getDb()
    .update(sheets)
    .set({ schema, schemaUpdatedAt: at, ...(name ? { name } : {}), ...bump })
    .where(eq(sheets.id, id))
    .returning();
  return row;
}

/**
 * Flags a sheet whose owner grant Google refused, unless the grant was replaced meanwhile: a
 * request still holding the old token must not undo a fresh re-authorization.
 */
export async function flagSheetNeedsReauth({ id, refreshTokenCiphertext }: { id: string; refreshTokenCiphertext: string | null }): Promise<Sheet | undefined> {
  const sameGrant = refreshTokenCiphertext === null ? sql`${sheets.refreshTokenCiphertext} is null` : eq(sheets.refreshTokenCiphertext, refreshTokenCiphertext);
  const [row] = await getDb()
    .update(sheets)
    .set({ needsReauth: true, ...bump })
    .where(and(eq(sheets.id, id), sameGrant))
    .returning();
  return row;
}

/** A new owner grant for a private sheet: the encrypted refresh token replaces the old one. */
export async function saveSheetGrant(input: { id: string; userId: string; refreshTokenCiphertext: string; grantEmail: string; writable: boolean }): Promise<Sheet | undefined> {
  const [row] = await getDb()
    .update(sheets)
    .set({ access: "oauth", refreshTokenCiphertext: input.refreshTokenCiphertext, grantEmail: input.grantEmail, writable: input.writable, needsReauth: false, ...bump })
    .where(and(eq(sheets.id, input.id), eq(sheets.userId, input.userId)))
    .returning();
  return row;
}

/** The owner's cache settings for a sheet of theirs; undefined when there is no such sheet. */
export async function setSheetCacheSettings(input: { id: string; userId: string; cacheTtlSeconds: number; maxStaleSeconds: number }): Promise<Sheet | undefined> {
  const [row] = await getDb()
    .update(sheets)
    .set({ cacheTtlSeconds: input.cacheTtlSeconds, maxStaleSeconds: input.maxStaleSeconds, ...bump })
    .where(and(eq(sheets.id, input.id), eq(sheets.userId, input.userId)))
    .returning();
  return row;
}
