import { getUserById } from "@/db/queries/users";
import { PLANS, planOf } from "@/lib/limits/plans";
import { SubmitButton } from "@/app/components/submit-button";
import { WEBHOOK_ENDPOINTS_PER_SHEET } from "@/lib/webhooks/plans";
import { changePlanAction } from "./actions";

const n = (x: number) => x.toLocaleString("en-US");

/** The account's plan, its limits, and a switcher (no payment provider yet). */
export async function PlanPanel({ userId }: { userId: string }) {
  const user = await getUserById({ id: userId });
  const current = user?.plan ?? "free_trial";
  const plan = planOf(current);
  return (
    <section className="rounded-lg border border-slate-200 p-6 dark:border-slate-800" data-testid="plan">
      <h2 className="text-lg font-semibold">Plan: <span data-testid="plan-name">{plan.label}</span></h2>
      <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
        {n(plan.month)} requests per billing period · {n(plan.day)} per day · {n(plan.hour)} per hour · {n(plan.burst)} per minute.
        Shared by all your keys and sheets.
      </p>
      <p className="mt-1 text-sm text-slate-600 dark:text-slate-400" data-testid="plan-webhooks">
        Webhook endpoints per sheet: {Object.entries(PLANS).map(([id, p]) => `${p.label} ${WEBHOOK_ENDPOINTS_PER_SHEET[id as keyof typeof PLANS]}`).join(" · ")}. Deliveries count toward nothing.
      </p>
      <p className="mt-1 text-sm text-slate-600 dark:text-slate-400" data-testid="plan-billing">
        Billing is not open yet: no payment is taken. A change applies to all your keys within 30 seconds; requests already counted this
        period stay counted, so a smaller plan may be past its limits at once.
      </p>
      <form action={changePlanAction} className="mt-4 flex flex-col gap-3 sm:flex-row sm:items-center">
        {/* Keyed by the plan: React resets a form after its action, and the select must then show the new plan. */}
        <select key={current} name="plan" defaultValue={current} aria-label="Plan" data-testid="plan-select" className="rounded-md border border-slate-300 bg-transparent px-3 py-2 text-sm dark:border-slate-700">
          {Object.entries(PLANS).map(([id, p]) => (
            <option key={id} value={id}>{p.label} ({n(p.month)} a month)</option>
          ))}
        </select>
        <SubmitButton testId="plan-submit" pendingText="Changing plan…" className="rounded-md border border-slate-300 px-4 py-2 text-sm hover:bg-slate-50 dark:border-slate-700 dark:hover:bg-slate-900">
          Change plan
        </SubmitButton>
      </form>
    </section>
  );
}
