"use client";
// The ways to Stripe: an upgrade button per paid plan (Checkout) and "Manage billing" (the portal).
import { useActionState } from "react";
import { SubmitButton } from "@/app/components/submit-button";
import { checkoutAction, portalAction, type BillingActionState } from "./billing-actions";

const BUTTON =
  "rounded-md border border-slate-300 px-4 py-2 text-sm hover:bg-slate-50 dark:border-slate-700 dark:hover:bg-slate-900";

function Failure({ state }: { state: BillingActionState }) {
  return state ? (
    <p role="alert" data-testid="billing-error" className="text-sm text-red-700 dark:text-red-300">
      {state.error}
    </p>
  ) : null;
}

export function UpgradeButtons({ plans }: { plans: { id: string; label: string; price: string }[] }) {
  const [state, action] = useActionState<BillingActionState, FormData>(checkoutAction, null);
  return (
    <div className="mt-4 space-y-2">
      <div className="flex flex-col gap-2 sm:flex-row sm:flex-wrap">
        {plans.map((p) => (
          <form key={p.id} action={action}>
            <input type="hidden" name="plan" value={p.id} />
            <SubmitButton
              testId={`upgrade-${p.id}`}
              pendingText="Opening Stripe Checkout…"
              className={`${BUTTON} w-full sm:w-auto`}
            >
              Upgrade to {p.label} · {p.price}
            </SubmitButton>
          </form>
        ))}
      </div>
      <Failure state={state} />
    </div>
  );
}

export function ManageBillingButton() {
  const [state, action] = useActionState<BillingActionState, FormData>(portalAction, null);
  return (
    <form action={action} className="mt-4 space-y-2">
      <SubmitButton testId="manage-billing" pendingText="Opening the billing portal…" className={BUTTON}>
        Manage billing
      </SubmitButton>
      <Failure state={state} />
    </form>
  );
}
