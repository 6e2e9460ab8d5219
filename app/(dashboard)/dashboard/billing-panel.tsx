// The plan panel's billing part when payment is taken through Stripe: prices, upgrade buttons,
// the subscription's state (past_due said plainly), the next invoice and past invoices.
import type { StripeBilling } from "@/lib/billing/client";
import { formatAmount, planForPrice, planPrices } from "@/lib/billing/plans";
import { PAYING } from "@/lib/plans";
import { billingSummary } from "@/lib/billing/summary";
import { PLANS, planOf } from "@/lib/plans";
import { ManageBillingButton, UpgradeButtons } from "./billing-buttons";

const day = (d: Date) =>
  d.toLocaleDateString("en-US", { year: "numeric", month: "short", day: "numeric", timeZone: "UTC" });

export async function BillingPanel({ billing, userId }: { billing: StripeBilling; userId: string }) {
  const [prices, summary] = await Promise.all([planPrices(billing), billingSummary(billing, userId)]);
  const account = summary.account;
  const paying = Boolean(account?.status && PAYING.has(account.status));
  const priceText = (amount: number | undefined, currency: string) =>
    amount === undefined ? "price unavailable" : `${formatAmount(amount, currency)} a month`;
  const subscribedPlan = planForPrice(billing, account?.priceId);
  return (
    <div data-testid="billing">
      <ul
        className="mt-3 grid gap-1 text-sm text-slate-600 sm:grid-cols-2 dark:text-slate-400"
        data-testid="plan-prices"
      >
        {prices.map((p) => (
          <li key={p.plan}>
            {p.label}: {p.plan === "free_trial" ? "free" : priceText(p.amount, p.currency)} ·{" "}
            {PLANS[p.plan].month.toLocaleString("en-US")} requests a month
          </li>
        ))}
      </ul>
      {account?.status === "past_due" && (
        <p
          role="alert"
          data-testid="billing-past-due"
          className="mt-3 rounded-md bg-amber-50 p-3 text-sm text-amber-900 dark:bg-amber-950 dark:text-amber-100"
        >
          Your last payment failed. Stripe is trying again over the next days and the plan last paid for stays meanwhile
          (an unpaid upgrade applies once it is paid); update your card with Manage billing. If every retry fails, the
          account returns to Free Trial: your keys keep working within its limits.
        </p>
      )}
      {paying && account ? (
        <div className="mt-3 text-sm" data-testid="billing-subscription">
          <p>
            Subscription: <span data-testid="billing-status">{account.status}</span>
            {subscribedPlan ? ` · ${planOf(subscribedPlan).label}` : ""}
            {account.currentPeriodStart && account.currentPeriodEnd
              ? ` · this period ${day(account.currentPeriodStart)} – ${day(account.currentPeriodEnd)}`
              : ""}
            {account.cancelAtPeriodEnd && account.currentPeriodEnd
              ? ` · ends on ${day(account.currentPeriodEnd)}, then Free Trial`
              : ""}
          </p>
          {summary.next && (
            <p data-testid="billing-next-invoice">
              Next invoice: {day(summary.next.date)}, {formatAmount(summary.next.amount, summary.next.currency)}
            </p>
          )}
          <p className="mt-1 text-slate-600 dark:text-slate-400">
            Change plan, card or cancel in the billing portal: an upgrade applies at once (prorated), a downgrade or
            cancellation at the end of the period.
          </p>
          <ManageBillingButton />
        </div>
      ) : (
        <>
          <p className="mt-3 text-sm text-slate-600 dark:text-slate-400">
            Paying through Stripe Checkout: your plan changes as soon as Stripe confirms the payment, usually within
            seconds of your return.
          </p>
          <UpgradeButtons
            plans={prices
              .filter((p) => p.plan !== "free_trial")
              .map((p) => ({ id: p.plan, label: p.label, price: priceText(p.amount, p.currency) }))}
          />
          {account && <ManageBillingButton />}
        </>
      )}
      {summary.unavailable && (
        <p className="mt-3 text-sm text-slate-600 dark:text-slate-400">
          Stripe could not be reached: invoices are not shown right now.
        </p>
      )}
      {summary.invoices.length > 0 && (
        <table className="mt-4 w-full text-left text-sm" data-testid="billing-invoices">
          <caption className="text-left text-xs text-slate-600 dark:text-slate-400">Past invoices</caption>
          <tbody>
            {summary.invoices.map((i) => (
              <tr key={i.id} className="border-t border-slate-100 dark:border-slate-800">
                <td className="py-1.5">{day(i.created)}</td>
                <td className="py-1.5 font-mono text-xs">{i.number}</td>
                <td className="py-1.5 text-right">{formatAmount(i.amount, i.currency)}</td>
                <td className="py-1.5 pl-3">
                  {i.url ? (
                    <a className="underline" href={i.url}>
                      {i.status}
                    </a>
                  ) : (
                    i.status
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
