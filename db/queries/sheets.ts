import { and, asc, desc, eq, isNull, lte, ne, or, sql } from "drizzle-orm";
import { getDb } from "../client";
import {
  apiKeys,
  sheetClaims,
  sheets,
  webhookDeliveries,
  webhookEndpoints,
  type AccessState,
  type ApiKey,
  type NewSheet,
  type Sheet,
  type SheetClaim,
  type SheetProof,
} from "../schema";

const bump = { version: sql`${sheets.version} + 1` };

export async function insertSheet(input: NewSheet): Promise<Sheet> {
  const [sheet] = await getDb().insert(sheets).values(input).returning();
  return sheet!;
}

/** Any account's sheet: for the API, which finds the owner through the key. */
export async function getSheet({ id }: { id: string }): Promise<Sheet | undefined> {
  return getDb().query.sheets.findFirst({ where: eq(sheets.id, id) });
}

/** Just the sheet's access state (the delivery worker asks before each attempt). */
export async function sheetAccessState({ id }: { id: string }): Promise<AccessState | undefined> {
  const [row] = await getDb().select({ state: sheets.accessState }).from(sheets).where(eq(sheets.id, id));
  return row?.state;
}

export async function getSheetForUser({ id, userId }: { id: string; userId: string }): Promise<Sheet | undefined> {
  return getDb().query.sheets.findFirst({ where: and(eq(sheets.id, id), eq(sheets.userId, userId)) });
}

export async function listSheets({ userId }: { userId: string }): Promise<Sheet[]> {
  return getDb().select().from(sheets).where(eq(sheets.userId, userId)).orderBy(asc(sheets.createdAt));
}

export async function saveSheetSchema({
  id,
  schema,
  at,
  name,
}: {
  id: string;
  schema: unknown;
  at: Date;
  name?: string;
}): Promise<Sheet | undefined> {
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
export async function flagSheetNeedsReauth({
  id,
  refreshTokenCiphertext,
}: {
  id: string;
  refreshTokenCiphertext: string | null;
}): Promise<Sheet | undefined> {
  const sameGrant =
    refreshTokenCiphertext === null
      ? sql`${sheets.refreshTokenCiphertext} is null`
      : eq(sheets.refreshTokenCiphertext, refreshTokenCiphertext);
  const [row] = await getDb()
    .update(sheets)
    .set({ needsReauth: true, ...bump })
    .where(and(eq(sheets.id, id), sameGrant))
    .returning();
  return row;
}

/** The owner's sheet reached through their grant from now on (re-authorized, or switched to it). */
export async function saveSheetGrant(
  input: { id: string; userId: string } & Pick<
    NewSheet,
    "access" | "writable" | "proof" | "grantId" | "refreshTokenCiphertext" | "grantEmail" | "serviceAccount"
  >,
): Promise<Sheet | undefined> {
  const { id, userId, ...set } = input;
  const [row] = await getDb()
    .update(sheets)
    .set({ ...set, needsReauth: false, ...bump })
    .where(and(eq(sheets.id, id), eq(sheets.userId, userId)))
    .returning();
  return row;
}

/** The settings an owner changes on a sheet's page (cache, writes, docs). */
export type SheetSettings = Partial<
  Pick<Sheet, "cacheTtlSeconds" | "maxStaleSeconds" | "userEnteredWrites" | "docsExamples">
>;

/** Saves the owner's settings of one of their sheets; undefined when the account has no such sheet. */
export async function setSheetSettings(input: {
  id: string;
  userId: string;
  settings: SheetSettings;
}): Promise<Sheet | undefined> {
  const [row] = await getDb()
    .update(sheets)
    .set({ ...input.settings, ...bump })
    .where(and(eq(sheets.id, input.id), eq(sheets.userId, input.userId)))
    .returning();
  return row;
}

/**
 * Hands a sheet registered with weaker proof to an account that proved edit access, and records
 * it for the previous owner; undefined when the sheet changed hands or proof meanwhile. With
 * `overEdit` (the file's owner, or an editor over a holder whose edit access just lapsed in
 * Google) a registration with edit proof moves too, still only from `fromUserId`.
 */
export async function claimSheet(input: {
  id: string;
  fromUserId: string;
  claimId: string;
  overEdit?: boolean;
  set: Pick<
    NewSheet,
    "userId" | "access" | "writable" | "proof" | "grantId" | "refreshTokenCiphertext" | "grantEmail" | "serviceAccount"
  >;
}): Promise<{ sheet: Sheet; stoppedKeys: ApiKey[] } | undefined> {
  return getDb().transaction(async (tx) => {
    const now = new Date();
    const [row] = await tx
      .update(sheets)
      .set({ ...input.set, needsReauth: false, createdAt: now, ...bump })
      .where(
        and(
          eq(sheets.id, input.id),
          eq(sheets.userId, input.fromUserId),
          input.overEdit ? undefined : ne(sheets.proof, "edit"),
        ),
      )
      .returning();
    if (!row) return undefined;
    await tx
      .insert(sheetClaims)
      .values({ id: input.claimId, sheetId: row.id, sheetName: row.name, previousUserId: input.fromUserId });
    const stoppedKeys = await tx
      .update(apiKeys)
      .set({ claimedAt: now, version: sql`${apiKeys.version} + 1` })
      .where(and(eq(apiKeys.sheetId, input.id), eq(apiKeys.userId, input.fromUserId), isNull(apiKeys.claimedAt)))
      .returning();
    // The previous owner's webhook endpoints go with their keys: the sheet's changes must not keep
    // flowing to addresses the new owner never chose. Their pending deliveries go too (cascade).
    await tx.delete(webhookEndpoints).where(eq(webhookEndpoints.sheetId, input.id));
    return { sheet: row, stoppedKeys };
  });
}

/** Sheets taken from the account by editors, the latest first. */
export async function listClaimsAgainst({ userId }: { userId: string }): Promise<SheetClaim[]> {
  return getDb()
    .select()
    .from(sheetClaims)
    .where(eq(sheetClaims.previousUserId, userId))
    .orderBy(desc(sheetClaims.claimedAt));
}

/**
 * Takes the turn to re-check the registrant's access (one instance a turn, fleet-wide): moves the
 * check time to `now` while it is still at or before `dueBefore` and the sheet still belongs to
 * `userId`. The row when this caller won the turn; undefined when another did, or the sheet moved.
 */
export async function takeAccessCheck(input: {
  id: string;
  userId: string;
  dueBefore: Date;
  now: Date;
}): Promise<Sheet | undefined> {
  const [row] = await getDb()
    .update(sheets)
    .set({ accessCheckedAt: input.now })
    .where(and(eq(sheets.id, input.id), eq(sheets.userId, input.userId), lte(sheets.accessCheckedAt, input.dueBefore)))
    .returning();
  return row;
}

/**
 * Records what Google answered about the registrant (`userId`, unless the sheet changed hands
 * meanwhile). A registration suspended now drops its webhook deliveries still waiting: they are
 * not sent later, even once access is restored.
 */
export async function recordAccessCheck(input: {
  id: string;
  userId: string;
  state: AccessState;
  at: Date;
  unprovenSince?: Date | null;
  proof?: SheetProof;
}): Promise<Sheet | undefined> {
  return getDb().transaction(async (tx) => {
    const [row] = await tx
      .update(sheets)
      .set({
        accessState: input.state,
        accessCheckedAt: input.at,
        ...(input.unprovenSince !== undefined ? { accessUnprovenSince: input.unprovenSince } : {}),
        ...(input.proof ? { proof: input.proof } : {}),
        ...bump,
      })
      .where(and(eq(sheets.id, input.id), eq(sheets.userId, input.userId)))
      .returning();
    if (row && input.state === "suspended") {
      const endpoints = tx
        .select({ id: webhookEndpoints.id })
        .from(webhookEndpoints)
        .where(eq(webhookEndpoints.sheetId, input.id));
      await tx
        .update(webhookDeliveries)
        .set({ state: "cancelled", leasedUntil: null })
        .where(and(eq(webhookDeliveries.state, "pending"), sql`${webhookDeliveries.endpointId} in ${endpoints}`));
    }
    return row;
  });
}

/**
 * Makes the registrant's access check due now (Google refused their grant): the sheets changed, to
 * publish. For one sheet at most once per `onceIn` ms: should Google go on refusing reads the
 * re-check does not refuse, a failing request does not start a check of its own each time. A
 * revoked grant makes every sheet of the account due at once, whenever it happens.
 */
export async function makeAccessCheckDue(where: { id: string } | { userId: string }, onceIn: number): Promise<Sheet[]> {
  const now = new Date();
  const notForcedLately = or(
    isNull(sheets.accessForcedAt),
    lte(sheets.accessForcedAt, new Date(now.getTime() - onceIn)),
  );
  return (
    getDb()
      .update(sheets)
      .set({ accessCheckedAt: new Date(0), accessForcedAt: now, ...bump })
      // A revoked grant (by account) is final news, never held back; a refused call (by sheet) is
      // bounded, since Google may refuse reads that the re-check does not.
      .where(
        and(
          "id" in where ? and(eq(sheets.id, where.id), notForcedLately) : eq(sheets.userId, where.userId),
          ne(sheets.accessState, "service"),
        ),
      )
      .returning()
  );
}
