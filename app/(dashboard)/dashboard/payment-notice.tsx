// On the dashboard's home: a subscription whose payment failed (past_due) is said where the owner
// looks first, with what happens if it is not fixed. From the stored state: no call to Stripe.
import Link from "next/link";
import { getBillingAccount } from "@/db/queries/billing";

export async function PaymentFailedNotice({ userId }: { userId: string }) {
  const billing = await getBillingAccount({ userId });
  if (billing?.status !== "past_due") return null;
  return (
    <p
      role="alert"
      data-testid="payment-failed"
      className="rounded-md bg-amber-50 p-3 text-sm text-amber-900 dark:bg-amber-950 dark:text-amber-100"
    >
      Your last payment failed. Stripe is trying again; your plan stays meanwhile. Update your card, or the account
      returns to Free Trial when the retries end (your keys keep working within its limits).{" "}
      <Link href="/dashboard/usage" className="font-medium underline">
        Manage billing
      </Link>
    </p>
  );
}
