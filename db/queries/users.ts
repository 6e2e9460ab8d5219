import { eq } from "drizzle-orm";
import { getDb } from "../client";
import { accounts, users, type User } from "../schema";

export async function createUser(input: { email: string; name?: string | null; plan?: string; billingAnchor?: Date }): Promise<User> {
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
export async function linkSignInAccount(input: { userId: string; provider: string; providerAccountId: string; type: string }): Promise<void> {
  await getDb().insert(accounts).values(input).onConflictDoNothing();
}
