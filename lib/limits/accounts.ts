// An account's plan and billing anchor for the limiter, kept in process memory for a short
// while: a plan change reaches this instance at once and the others within ACCOUNT_TTL_MS.
import { getBillingAccount } from "@/db/queries/billing";
import { getUserById, setUserPlan } from "@/db/queries/users";
import { PAYING } from "@/lib/plans";
import { ApiError } from "@/lib/errors";
import { isPlanId, type PlanId } from "@/lib/plans";
import { perProcess } from "@/lib/per-process";

export interface AccountLimits {
  userId: string;
  plan: PlanId;
  billingAnchor: Date;
}

const ACCOUNT_TTL_MS = 30_000;
// Per process: a plan change made by a server action must reach this instance's routes at once.
const cache = perProcess("account-limits", () => new Map<string, { account: AccountLimits; at: number }>());

export async function accountLimits(userId: string): Promise<AccountLimits> {
  const hit = cache.get(userId);
  if (hit && Date.now() - hit.at < ACCOUNT_TTL_MS) return hit.account;
  const user = await getUserById({ id: userId });
  if (!user) throw new ApiError("unauthorized", "Invalid API key: its account no longer exists.");
  const plan = isPlanId(user.plan) ? user.plan : "free_trial";
  // A paid account's month is its subscription's current period (DECISIONS 14): periods repeat
  // monthly from its start, so a renewal reported late still finds the right window.
  const billing = plan === "free_trial" ? undefined : await getBillingAccount({ userId });
  const billingAnchor =
    (billing?.status && PAYING.has(billing.status) && billing.currentPeriodStart) || user.billingAnchor;
  const account = { userId, plan, billingAnchor } satisfies AccountLimits;
  cache.set(userId, { account, at: Date.now() });
  return account;
}

/** Drops this instance's copy at once (a webhook changed the plan); other instances follow within ACCOUNT_TTL_MS. */
export function forgetAccountLimits(userId: string): void {
  cache.delete(userId);
}

/** Changes the plan without payment (BILLING=off): an upgrade lifts limits at once, a downgrade applies at once. */
export async function changePlan(userId: string, plan: string): Promise<void> {
  if (!isPlanId(plan)) throw new ApiError("validation_error", `Unknown plan "${plan}".`);
  await setUserPlan({ id: userId, plan });
  cache.delete(userId);
}
