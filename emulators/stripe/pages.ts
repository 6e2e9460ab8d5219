// The hosted pages: Checkout (a card form where Stripe's test cards behave as documented) and the
// customer portal (plan change, cancellation, card, invoices). Plain HTML forms, no script.
import type { Obj } from "./model";

const esc = (value: unknown) => String(value ?? "").replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
export const money = (cents: number, currency = "usd") =>
  `${currency === "usd" ? "$" : `${currency.toUpperCase()} `}${(cents / 100).toFixed(2)}`;
const day = (unix: unknown) => new Date(Number(unix) * 1000).toISOString().slice(0, 10);

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${esc(title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:2rem auto;padding:0 1rem;color:#1a1f36}label{display:block;margin-top:.75rem;font-size:.9rem}input,select{width:100%;box-sizing:border-box;padding:.5rem;font-size:1rem;border:1px solid #aab;border-radius:6px}button{margin-top:1rem;padding:.6rem 1rem;font-size:1rem;border-radius:6px;border:0;background:#635bff;color:#fff;cursor:pointer}.error{color:#b3093c}.muted{color:#555;font-size:.9rem}table{width:100%;border-collapse:collapse}td{padding:.25rem 0;border-bottom:1px solid #eee;font-size:.9rem}</style></head><body>${body}</body></html>`;
}

export function checkoutPage(session: Obj, price: Obj, error?: string): string {
  if (session.status !== "open") {
    return page("Checkout", `<h1>This Checkout Session is no longer active.</h1>`);
  }
  return page(
    "Checkout",
    `<p class="muted">TEST MODE</p><h1>Subscribe to ${esc(price.nickname ?? price.product)}</h1>
<p data-testid="checkout-amount"><strong>${money(price.unit_amount as number, price.currency as string)}</strong> per month</p>
${error ? `<p class="error" role="alert">${esc(error)}</p>` : ""}
<form method="post">
<label>Card number<input name="cardNumber" autocomplete="cc-number" inputmode="numeric" required></label>
<label>Expiration (MM / YY)<input name="cardExpiry" autocomplete="cc-exp" required></label>
<label>CVC<input name="cardCvc" autocomplete="cc-csc" inputmode="numeric" required></label>
<button type="submit">Subscribe</button>
</form>
${session.cancel_url ? `<p><a href="${esc(session.cancel_url)}">← Back</a></p>` : ""}`,
  );
}

export interface PortalView {
  session: Obj;
  subscription?: Obj;
  price?: Obj;
  pendingPrice?: Obj;
  prices: Obj[];
  invoices: Obj[];
  cardLast4?: string;
  message?: string;
}

export function portalPage(view: PortalView): string {
  const { session, subscription, price } = view;
  const current =
    subscription && price
      ? `<h2>Current plan</h2><p data-testid="portal-plan">${esc(price.nickname ?? price.product)} — ${money(price.unit_amount as number)} per month (${esc(subscription.status)})</p>
<p class="muted">${subscription.cancel_at_period_end ? `Cancels on ${day(subscription.current_period_end)}.` : `Renews on ${day(subscription.current_period_end)}.`}${view.pendingPrice ? ` Changes to ${esc(view.pendingPrice.nickname ?? view.pendingPrice.product)} on ${day(subscription.current_period_end)}.` : ""}</p>
<form method="post" action="/p/session/${esc(session.id)}/update"><label>Change plan<select name="price">${view.prices.map((p) => `<option value="${esc(p.id)}"${p.id === price.id ? " selected" : ""}>${esc(p.nickname ?? p.product)} — ${money(p.unit_amount as number)} / month</option>`).join("")}</select></label><button type="submit">Update plan</button></form>
<form method="post" action="/p/session/${esc(session.id)}/${subscription.cancel_at_period_end ? "renew" : "cancel"}"><button type="submit">${subscription.cancel_at_period_end ? "Renew plan" : "Cancel plan"}</button></form>
<h2>Payment method</h2><p>${view.cardLast4 ? `Card ending ${esc(view.cardLast4)}` : "No card"}</p>
<form method="post" action="/p/session/${esc(session.id)}/card"><label>New card number<input name="cardNumber" required></label><button type="submit">Update card</button></form>`
      : `<p>No active subscription.</p>`;
  const invoices = view.invoices
    .map((i) => `<tr><td>${day(i.created)}</td><td>${money(i.amount_due as number)}</td><td>${esc(i.status)}</td></tr>`)
    .join("");
  return page(
    "Billing",
    `<p class="muted">TEST MODE</p><h1>Billing</h1>${view.message ? `<p role="status">${esc(view.message)}</p>` : ""}${current}
<h2>Invoice history</h2><table>${invoices || "<tr><td>No invoices yet.</td></tr>"}</table>
<p><a href="${esc(session.return_url)}">← Return to ${esc("SheetAPI")}</a></p>`,
  );
}
