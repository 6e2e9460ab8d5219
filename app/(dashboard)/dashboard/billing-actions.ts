"use server";
// Paid plans: to Stripe Checkout for an upgrade, to the customer portal for everything else. The
// plan itself changes when Stripe's webhook reports the subscription, not here.
import { redirect } from "next/navigation";
import { formAction } from "@/lib/auth/actions";
import { currentUser } from "@/lib/auth/session";
import { openPortal, startCheckout } from "@/lib/billing/checkout";
import { isStripeError } from "@/lib/billing/client";
import { ApiError } from "@/lib/errors";
import { errorFields, log } from "@/lib/log";

export type BillingActionState = { error: string } | null;

async function toStripe(
  go: (user: { id: string; email: string | null }) => Promise<string>,
): Promise<BillingActionState> {
  const user = await currentUser();
  if (!user) return { error: "Your session has ended: sign in again." };
  let url: string;
  try {
    url = await go({ id: user.id, email: user.email ?? null });
  } catch (err) {
    if (err instanceof ApiError && err.status < 500) return { error: err.message };
    if (!isStripeError(err)) {
      log.error({ ...errorFields(err), stack: (err as Error)?.stack }, "billing action: unhandled error");
      return { error: "Something went wrong on our side; nothing was charged. Try again." };
    }
    log.error(errorFields(err), "Stripe could not be reached for billing");
    return { error: "Stripe could not be reached; nothing was charged. Try again in a minute." };
  }
  redirect(url);
}

export const checkoutAction = formAction(
  "checkout",
  async (_before: BillingActionState, form: FormData): Promise<BillingActionState> => {
    const plan = form.get("plan");
    return toStripe((user) => startCheckout(user, typeof plan === "string" ? plan : ""));
  },
);

export async function portalAction(): Promise<BillingActionState> {
  return toStripe((user) => openPortal(user));
}
