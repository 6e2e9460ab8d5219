import { eq } from "drizzle-orm";
import { getDb } from "../client";
import { billingAccounts, stripeEvents, users, type BillingAccount } from "../schema";

export async function getBillingAccount({ userId }: { userId: string }): Promise<BillingAccount | undefined> {
  return getDb().query.billingAccounts.findFirst({ where: eq(billingAccounts.userId, userId) });
}

export async function getBillingAccountByCustomer({
  customerId,
}: {
  customerId: string;
}): Promise<BillingAccount | undefined> {
  return getDb().query.billingAccounts.findFirst({ where: eq(billingAccounts.stripeCustomerId, customerId) });
}

/** Keeps the account's first Stripe customer: a second, made by a concurrent checkout, is not stored. */
export async function saveBillingCustomer({
  userId,
  customerId,
}: {
  userId: string;
  customerId: string;
}): Promise<BillingAccount> {
  await getDb().insert(billingAccounts).values({ userId, stripeCustomerId: customerId }).onConflictDoNothing();
  return (await getBillingAccount({ userId }))!;
}

/**
 * Runs `work` holding the account's billing row lock: two checkouts opened at once for one
 * account take turns, so the second sees (and expires) the first's session. `work` must not use
 * the database itself.
 */
export async function withBillingLock<T>({ userId }: { userId: string }, work: () => Promise<T>): Promise<T> {
  return getDb().transaction(async (tx) => {
    await tx
      .select({ userId: billingAccounts.userId })
      .from(billingAccounts)
      .where(eq(billingAccounts.userId, userId))
      .for("update");
    return work();
  });
}

export interface SubscriptionState {
  subscriptionId: string | null;
  status: string | null;
  priceId: string | null;
  currentPeriodStart: Date | null;
  currentPeriodEnd: Date | null;
  cancelAtPeriodEnd: boolean;
}

/**
 * Writes the subscription state and the plan it gives, under a lock on the account's billing row:
 * `read` (Stripe's current state) runs inside it, so two events handled at once cannot store an
 * older reading over a newer one.
 */
export async function updateSubscriptionState(
  { customerId }: { customerId: string },
  read: () => Promise<{ state: SubscriptionState; plan: string }>,
): Promise<{ userId: string; plan: string } | undefined> {
  return getDb().transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(billingAccounts)
      .where(eq(billingAccounts.stripeCustomerId, customerId))
      .for("update");
    if (!row) return undefined;
    const { state, plan } = await read();
    await tx
      .update(billingAccounts)
      .set({ ...state, updatedAt: new Date() })
      .where(eq(billingAccounts.userId, row.userId));
    await tx.update(users).set({ plan }).where(eq(users.id, row.userId));
    return { userId: row.userId, plan };
  });
}

export async function stripeEventSeen({ id }: { id: string }): Promise<boolean> {
  return Boolean(await getDb().query.stripeEvents.findFirst({ where: eq(stripeEvents.id, id) }));
}

export async function recordStripeEvent({ id, type }: { id: string; type: string }): Promise<void> {
  await getDb().insert(stripeEvents).values({ id, type }).onConflictDoNothing();
}
