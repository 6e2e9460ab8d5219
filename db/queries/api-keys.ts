import { and, asc, eq, isNull } from "drizzle-orm";
import { getDb } from "../client";
import { apiKeys, type ApiKey, type NewApiKey } from "../schema";

export async function insertApiKey(input: NewApiKey): Promise<ApiKey> {
  const [key] = await getDb().insert(apiKeys).values(input).returning();
  return key!;
}

export async function findApiKeyByHash({ hash }: { hash: string }): Promise<ApiKey | undefined> {
  return getDb().query.apiKeys.findFirst({ where: eq(apiKeys.hash, hash) });
}

export async function listApiKeys({ userId, sheetId }: { userId: string; sheetId: string }): Promise<ApiKey[]> {
  return getDb()
    .select()
    .from(apiKeys)
    .where(and(eq(apiKeys.userId, userId), eq(apiKeys.sheetId, sheetId)))
    .orderBy(asc(apiKeys.createdAt));
}

/** Revokes a key of the user's; false when the user has no such live key. */
export async function revokeApiKey({ userId, id, at = new Date() }: { userId: string; id: string; at?: Date }): Promise<boolean> {
  const rows = await getDb()
    .update(apiKeys)
    .set({ revokedAt: at })
    .where(and(eq(apiKeys.id, id), eq(apiKeys.userId, userId), isNull(apiKeys.revokedAt)))
    .returning({ id: apiKeys.id });
  return rows.length === 1;
}
