// An account's plan and billing anchor for the limiter, kept in process memory for a short
// while: a plan change reaches this instance at once and the others within ACCOUNT_TTL_MS.
import { getUserById, setUserPlan } from "@/db/queries/users";
import { ApiError } from "@/lib/http/errors";
import { isPlanId, type PlanId } from "./plans";
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
  const account = { userId, plan: isPlanId(user.plan) ? user.plan : "free_trial", billingAnchor: user.billingAnchor } satisfies AccountLimits;
  cache.set(userId, { account, at: Date.now() });
  return account;
}

/** Changes the plan (no payment provider yet): an upgrade lifts limits at once, a downgrade applies at once. */
export async function changePlan(userId: string, plan: string): Promise<void> {
  if (!isPlanId(plan)) throw new ApiError("validation_error", `Unknown plan "${plan}".`);
  await setUserPlan({ id: userId, plan });
  cache.delete(userId);
}
