// What the dashboard shows of an account's billing: the subscription's state, the next invoice
// (date and amount, as Stripe previews it) and past invoices.
import { getBillingAccount } from "@/db/queries/billing";
import type { BillingAccount } from "@/db/schema";
import { errorFields, log } from "@/lib/log";
import { stripeFor, type StripeBilling } from "./client";

export interface InvoiceLine {
  id: string;
  number: string | null;
  created: Date;
  amount: number;
  currency: string;
  status: string | null;
  url: string | null;
}

export interface BillingSummary {
  account?: BillingAccount;
  next?: { date: Date; amount: number; currency: string };
  invoices: InvoiceLine[];
  /** True when Stripe could not be asked: the stored state is shown, invoices are not. */
  unavailable: boolean;
}

/** The dashboard shows what it has rather than wait long for Stripe. */
const QUICK = { timeout: 5_000, maxNetworkRetries: 0 };

export async function billingSummary(billing: StripeBilling, userId: string): Promise<BillingSummary> {
  const account = await getBillingAccount({ userId });
  if (!account) return { invoices: [], unavailable: false };
  const stripe = stripeFor(billing);
  try {
    const [list, upcoming] = await Promise.all([
      stripe.invoices.list({ customer: account.stripeCustomerId, limit: 12 }, QUICK),
      stripe.invoices
        .retrieveUpcoming({ customer: account.stripeCustomerId }, QUICK)
        .catch((err: { statusCode?: number }) => {
          if (err.statusCode === 404) return undefined; // nothing renews (no subscription, or it ends with the period)
          throw err;
        }),
    ]);
    return {
      account,
      next: upcoming?.next_payment_attempt
        ? {
            date: new Date(upcoming.next_payment_attempt * 1000),
            amount: upcoming.amount_due,
            currency: upcoming.currency,
          }
        : undefined,
      invoices: list.data.map((i) => ({
        id: i.id,
        number: i.number,
        created: new Date(i.created * 1000),
        amount: i.amount_due,
        currency: i.currency,
        status: i.status,
        url: i.hosted_invoice_url ?? null,
      })),
      unavailable: false,
    };
  } catch (err) {
    log.warn(errorFields(err), "Stripe could not be asked for the account's invoices");
    return { account, invoices: [], unavailable: true };
  }
}
