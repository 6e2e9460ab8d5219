import { and, desc, eq, sql } from "drizzle-orm";
import { getDb } from "../client";
import { googleGrants, sheets, type GoogleGrant, type Sheet } from "../schema";

/** The account's grants, the most recently renewed first. */
export async function listGrants({ userId }: { userId: string }): Promise<GoogleGrant[]> {
  return getDb()
    .select()
    .from(googleGrants)
    .where(eq(googleGrants.userId, userId))
    .orderBy(desc(googleGrants.updatedAt));
}

export async function getGrant({ id, userId }: { id: string; userId: string }): Promise<GoogleGrant | undefined> {
  return getDb().query.googleGrants.findFirst({ where: and(eq(googleGrants.id, id), eq(googleGrants.userId, userId)) });
}

/**
 * Keeps one grant per account and Google account: a new consent replaces the refresh token, and
 * every sheet reached through the grant gets the new token (returned, to be published).
 */
export async function saveGrant(input: {
  id: string;
  userId: string;
  googleSub: string;
  email: string;
  refreshTokenCiphertext: string;
  scope: string;
}): Promise<{ grant: GoogleGrant; sheets: Sheet[] }> {
  return getDb().transaction(async (tx) => {
    const [grant] = await tx
      .insert(googleGrants)
      .values(input)
      .onConflictDoUpdate({
        target: [googleGrants.userId, googleGrants.googleSub],
        set: {
          email: input.email,
          refreshTokenCiphertext: input.refreshTokenCiphertext,
          scope: input.scope,
          needsReauth: false,
          updatedAt: new Date(),
        },
      })
      .returning();
    const updated = await tx
      .update(sheets)
      .set({
        refreshTokenCiphertext: input.refreshTokenCiphertext,
        needsReauth: false,
        version: sql`${sheets.version} + 1`,
      })
      .where(eq(sheets.grantId, grant!.id))
      .returning();
    return { grant: grant!, sheets: updated };
  });
}

/** Google refused this refresh token: the account must consent again before the grant is used. */
export async function flagGrantNeedsReauth({
  refreshTokenCiphertext,
}: {
  refreshTokenCiphertext: string;
}): Promise<void> {
  await getDb()
    .update(googleGrants)
    .set({ needsReauth: true })
    .where(eq(googleGrants.refreshTokenCiphertext, refreshTokenCiphertext));
}
