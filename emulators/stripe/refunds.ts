// Charges behind paid invoices and refunds of them (`POST /v1/refunds`, `GET /v1/refunds`), as
// Stripe's API describes them: a refund names a charge or a payment intent, takes at most what is
// left unrefunded, and defaults to all of it.
import { invalid, missing, StripeError } from "./http";
import { listObject, newId, type Obj } from "./model";

interface Charge {
  id: string;
  paymentIntent: string;
  amount: number;
  refunded: number;
  currency: string;
}

export class Refunds {
  private readonly charges = new Map<string, Charge>();
  readonly refunds = new Map<string, Obj>();

  constructor(private readonly now: () => number) {}

  /** The charge a paid invoice carries (Stripe makes one per payment of a non-zero amount). */
  charge(amount: number, currency: string): { charge: string; paymentIntent: string } {
    const charge: Charge = { id: newId("ch"), paymentIntent: newId("pi"), amount, refunded: 0, currency };
    this.charges.set(charge.id, charge);
    return { charge: charge.id, paymentIntent: charge.paymentIntent };
  }

  create(input: {
    charge?: string;
    paymentIntent?: string;
    amount?: string;
    reason?: string;
    metadata: Record<string, string>;
  }): Obj {
    if (!input.charge && !input.paymentIntent)
      throw invalid("One of the following params should be provided for this request: payment_intent or charge.");
    if (input.charge && input.paymentIntent)
      throw invalid("You cannot specify both a charge and a payment_intent.", "payment_intent");
    const charge = input.charge
      ? this.charges.get(input.charge)
      : [...this.charges.values()].find((c) => c.paymentIntent === input.paymentIntent);
    if (!charge)
      throw input.charge
        ? missing("charge", input.charge, "charge")
        : missing("payment_intent", input.paymentIntent!, "payment_intent");
    if (input.reason !== undefined && !["duplicate", "fraudulent", "requested_by_customer"].includes(input.reason)) {
      throw invalid("Invalid reason: must be one of duplicate, fraudulent, or requested_by_customer", "reason");
    }
    const left = charge.amount - charge.refunded;
    if (left <= 0)
      throw new StripeError(400, {
        code: "charge_already_refunded",
        message: `Charge ${charge.id} has already been refunded.`,
        type: "invalid_request_error",
      });
    const amount = input.amount === undefined ? left : Number(input.amount);
    if (!Number.isInteger(amount) || amount < 1) throw invalid("Invalid positive integer", "amount");
    if (amount > left)
      throw invalid(
        `Refund amount ($${(amount / 100).toFixed(2)}) is greater than unrefunded amount on charge ($${(left / 100).toFixed(2)})`,
        "amount",
      );
    charge.refunded += amount;
    const refund: Obj = {
      id: newId("re"),
      object: "refund",
      amount,
      balance_transaction: newId("txn"),
      charge: charge.id,
      created: this.now(),
      currency: charge.currency,
      destination_details: {
        card: { reference_status: "pending", reference_type: "acquirer_reference_number", type: "refund" },
        type: "card",
      },
      metadata: input.metadata,
      payment_intent: charge.paymentIntent,
      reason: input.reason ?? null,
      receipt_number: null,
      source_transfer_reversal: null,
      status: "succeeded",
      transfer_reversal: null,
    };
    this.refunds.set(refund.id, refund);
    return refund;
  }

  list(params: URLSearchParams, limit: number): unknown {
    const charge = params.get("charge");
    const intent = params.get("payment_intent");
    const all = [...this.refunds.values()].filter(
      (r) => (!charge || r.charge === charge) && (!intent || r.payment_intent === intent),
    );
    all.sort((x, y) => (y.created as number) - (x.created as number));
    return listObject("/v1/refunds", all.slice(0, limit), all.length > limit);
  }
}
