import { and, count, eq, inArray, isNull, notInArray, or } from "drizzle-orm";
import { getDb } from "../client";
import { accounts, users, type User } from "../schema";

export async function createUser(input: {
  email: string;
  name?: string | null;
  plan?: string;
  billingAnchor?: Date;
}): Promise<User> {
  const [user] = await getDb().insert(users).values(input).returning();
  return user!;
}

export async function getUserById({ id }: { id: string }): Promise<User | undefined> {
  return getDb().query.users.findFirst({ where: eq(users.id, id) });
}

export async function getUserByEmail({ email }: { email: string }): Promise<User | undefined> {
  return getDb().query.users.findFirst({ where: eq(users.email, email) });
}

export async function setUserPlan({ id, plan }: { id: string; plan: string }): Promise<void> {
  await getDb().update(users).set({ plan }).where(eq(users.id, id));
}

/** Links a sign-in identity (provider and its subject id) to an account, once. */
export async function linkSignInAccount(input: {
  userId: string;
  provider: string;
  providerAccountId: string;
  type: string;
}): Promise<void> {
  await getDb().insert(accounts).values(input).onConflictDoNothing();
}

/** How many accounts are asked to share their sheets with each of `emails` (absent: none). */
export async function countUsersByServiceAccount(emails: string[]): Promise<Map<string, number>> {
  const rows = await getDb()
    .select({ email: users.serviceAccount, n: count() })
    .from(users)
    .where(inArray(users.serviceAccount, emails))
    .groupBy(users.serviceAccount);
  return new Map(rows.map((r) => [r.email!, r.n]));
}

/**
 * Gives the account `email` unless it already has one of `configured`: the address it was given
 * first stays (a concurrent choice loses). Returns the account's address after the call.
 */
export async function assignServiceAccount({
  id,
  email,
  configured,
}: {
  id: string;
  email: string;
  configured: string[];
}): Promise<string | undefined> {
  const [row] = await getDb()
    .update(users)
    .set({ serviceAccount: email })
    .where(and(eq(users.id, id), or(isNull(users.serviceAccount), notInArray(users.serviceAccount, configured))))
    .returning({ serviceAccount: users.serviceAccount });
  return row?.serviceAccount ?? (await getUserById({ id }))?.serviceAccount ?? undefined;
}
