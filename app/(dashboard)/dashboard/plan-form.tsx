"use client";
// The plan switcher: says what happened once the change is made (or why it was not).
import { useActionState } from "react";
import { SubmitButton } from "@/app/components/submit-button";
import { changePlanAction, type PlanChange } from "./actions";

export function PlanForm({
  current,
  plans,
}: {
  current: string;
  plans: { id: string; label: string; month: string }[];
}) {
  const [result, action] = useActionState<PlanChange, FormData>(changePlanAction, null);
  const label = (id: string) => plans.find((p) => p.id === id)?.label ?? id;
  return (
    <form action={action} className="mt-4 space-y-2">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center">
        {/* Keyed by the plan: React resets a form after its action, and the select must then show the new plan. */}
        <select
          key={current}
          name="plan"
          defaultValue={current}
          aria-label="Plan"
          data-testid="plan-select"
          className="rounded-md border border-slate-300 bg-transparent px-3 py-2 text-sm dark:border-slate-700"
        >
          {plans.map((p) => (
            <option key={p.id} value={p.id}>
              {p.label} ({p.month} a month)
            </option>
          ))}
        </select>
        <SubmitButton
          testId="plan-submit"
          pendingText="Changing plan…"
          className="rounded-md border border-slate-300 px-4 py-2 text-sm hover:bg-slate-50 dark:border-slate-700 dark:hover:bg-slate-900"
        >
          Change plan
        </SubmitButton>
      </div>
      {result && (
        <p
          role={result.ok ? "status" : "alert"}
          data-testid="plan-result"
          className={`text-sm ${result.ok ? "text-emerald-700 dark:text-emerald-400" : "text-red-700 dark:text-red-300"}`}
        >
          {result.ok
            ? `You are now on ${label(result.plan)}. Its limits apply to all your keys within 30 seconds.`
            : result.error}
        </p>
      )}
    </form>
  );
}
