import { getUserById } from "@/db/queries/users";
import { config } from "@/lib/env";
import { PLANS, planOf } from "@/lib/plans";
import { BillingPanel } from "./billing-panel";
import { PlanForm } from "./plan-form";

const n = (x: number) => x.toLocaleString("en-US");

/** The account's plan, its limits, and how to change it: through Stripe, or freely when billing is off. */
export async function PlanPanel({ userId }: { userId: string }) {
  const user = await getUserById({ id: userId });
  const current = user?.plan ?? "free_trial";
  const plan = planOf(current);
  const billing = config().billing;
  return (
    <section
      id="plan"
      className="scroll-mt-4 rounded-lg border border-slate-200 p-6 dark:border-slate-800"
      data-testid="plan"
    >
      <h2 className="text-lg font-semibold">
        Plan: <span data-testid="plan-name">{plan.label}</span>
      </h2>
      <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
        {n(plan.month)} requests per billing period · {n(plan.day)} per day · {n(plan.hour)} per hour · {n(plan.burst)}{" "}
        per minute. Shared by all your keys and sheets.
      </p>
      <p className="mt-1 text-sm text-slate-600 dark:text-slate-400" data-testid="plan-webhooks">
        Webhook endpoints per sheet:{" "}
        {Object.entries(PLANS)
          .map(([id, p]) => `${p.label} ${p.webhookEndpointsPerSheet}`)
          .join(" · ")}
        . Deliveries count toward nothing.
      </p>
      {billing.enabled ? (
        <BillingPanel billing={billing} userId={userId} />
      ) : (
        <>
          <p className="mt-1 text-sm text-slate-600 dark:text-slate-400" data-testid="plan-billing">
            Billing is off on this service: no payment is taken, and you change plan here freely. A change applies to
            all your keys within 30 seconds; requests already counted this period stay counted, so a smaller plan may be
            past its limits at once.
          </p>
          <PlanForm
            current={current}
            plans={Object.entries(PLANS).map(([id, p]) => ({ id, label: p.label, month: n(p.month) }))}
          />
        </>
      )}
    </section>
  );
}
