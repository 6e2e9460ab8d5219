import { and, asc, eq, inArray, isNull, sql } from "drizzle-orm";
import { getDb } from "../client";
import { apiKeys, type ApiKey, type NewApiKey } from "../schema";

const bump = { version: sql`${apiKeys.version} + 1` };

export async function insertApiKey(input: NewApiKey): Promise<ApiKey> {
  const [key] = await getDb().insert(apiKeys).values(input).returning();
  return key!;
}

export async function findApiKeyByHash({ hash }: { hash: string }): Promise<ApiKey | undefined> {
  return getDb().query.apiKeys.findFirst({ where: eq(apiKeys.hash, hash) });
}

/** One of the user's keys; another account's key id is simply not found. */
export async function getApiKeyForUser({ userId, id }: { userId: string; id: string }): Promise<ApiKey | undefined> {
  return getDb().query.apiKeys.findFirst({ where: and(eq(apiKeys.id, id), eq(apiKeys.userId, userId)) });
}

export async function listApiKeys({ userId, sheetId }: { userId: string; sheetId: string }): Promise<ApiKey[]> {
  return getDb()
    .select()
    .from(apiKeys)
    .where(and(eq(apiKeys.userId, userId), eq(apiKeys.sheetId, sheetId)))
    .orderBy(asc(apiKeys.createdAt));
}

/** New permissions for a live key of the user's; undefined when there is no such key. */
export async function setApiKeyPermissions({
  userId,
  id,
  permissions,
}: {
  userId: string;
  id: string;
  permissions: string[];
}): Promise<ApiKey | undefined> {
  const [row] = await getDb()
    .update(apiKeys)
    .set({ permissions, ...bump })
    .where(and(eq(apiKeys.id, id), eq(apiKeys.userId, userId), isNull(apiKeys.revokedAt)))
    .returning();
  return row;
}

/** New browser-key settings for a live publishable key of the user's; undefined when there is no such key. */
export async function setBrowserKeySettings({
  userId,
  id,
  settings,
}: {
  userId: string;
  id: string;
  settings: { origins: string[]; tabs: string[] | null; columns: string[] | null; visitorLimit: number };
}): Promise<ApiKey | undefined> {
  const [row] = await getDb()
    .update(apiKeys)
    .set({
      allowedOrigins: settings.origins,
      allowedTabs: settings.tabs,
      allowedColumns: settings.columns,
      visitorLimit: settings.visitorLimit,
      ...bump,
    })
    .where(
      and(eq(apiKeys.id, id), eq(apiKeys.userId, userId), eq(apiKeys.kind, "publishable"), isNull(apiKeys.revokedAt)),
    )
    .returning();
  return row;
}

/** Whether a live key of the user's may read formulas; undefined when the user has no such live key. */
export async function setApiKeyReadFormulas({
  userId,
  id,
  readFormulas,
}: {
  userId: string;
  id: string;
  readFormulas: boolean;
}): Promise<ApiKey | undefined> {
  const [row] = await getDb()
    .update(apiKeys)
    .set({ readFormulas, ...bump })
    .where(and(eq(apiKeys.id, id), eq(apiKeys.userId, userId), isNull(apiKeys.revokedAt)))
    .returning();
  return row;
}

/** Revokes a live key of the user's; undefined when the user has no such live key. */
export async function revokeApiKey({
  userId,
  id,
  at = new Date(),
}: {
  userId: string;
  id: string;
  at?: Date;
}): Promise<ApiKey | undefined> {
  const [row] = await getDb()
    .update(apiKeys)
    .set({ revokedAt: at, ...bump })
    .where(and(eq(apiKeys.id, id), eq(apiKeys.userId, userId), isNull(apiKeys.revokedAt)))
    .returning();
  return row;
}

/** Last-used stamps, written in batches off the request path (no version bump: not cached). */
export async function stampApiKeysUsed({ ids, at }: { ids: string[]; at: Date }): Promise<void> {
  if (!ids.length) return;
  await getDb().update(apiKeys).set({ lastUsedAt: at }).where(inArray(apiKeys.id, ids));
}

/** Adds to a form key's counts of submissions written and refused. Not a change of the key: no version bump. */
export async function addFormCounts({
  id,
  accepted,
  refused,
}: {
  id: string;
  accepted: number;
  refused: number;
}): Promise<void> {
  await getDb()
    .update(apiKeys)
    .set({
      formAccepted: sql`${apiKeys.formAccepted} + ${accepted}`,
      formRefused: sql`${apiKeys.formRefused} + ${refused}`,
    })
    .where(eq(apiKeys.id, id));
}
