// The hosted pages' routes: Checkout (`/c/pay/{session}`) and the customer portal
// (`/p/session/{session}` and its actions).
import type { IncomingMessage, ServerResponse } from "node:http";
import { parseForm, text, type Form } from "./form";
import { readBody, redirect, sendHtml } from "./http";
import type { Obj } from "./model";
import { checkoutPage, portalPage } from "./pages";
import type { StripeState } from "./state";

export function hostedPages(state: StripeState) {
  /** What the session's configuration allows: the prices offered and how a change is prorated (the default one: every price, invoiced at once). */
  function updateRules(session: Obj): { prices: Obj[]; proration: string } {
    const configuration = state.portalConfigurations.get(session.configuration as string);
    if (!configuration) return { prices: [...state.prices.values()], proration: "always_invoice" };
    const update = (
      configuration.features as {
        subscription_update: { enabled: boolean; products: { prices: string[] }[]; proration_behavior: string };
      }
    ).subscription_update;
    const offered = update.enabled ? update.products.flatMap((p) => p.prices) : [];
    return {
      prices: [...state.prices.values()].filter((p) => offered.includes(p.id)),
      proration: update.proration_behavior,
    };
  }

  function portalView(session: Obj, message?: string) {
    const subscription = [...state.subscriptions.values()].find(
      (s) => s.customer === session.customer && s.status !== "canceled",
    );
    const price = subscription ? ((subscription.items as { data: Obj[] }).data[0]!.price as Obj) : undefined;
    const pending = subscription ? state.pendingPrices.get(subscription.id) : undefined;
    return portalPage({
      session,
      subscription,
      price,
      pendingPrice: pending ? state.prices.get(pending) : undefined,
      prices: updateRules(session).prices,
      invoices: [...state.invoices.values()]
        .filter((i) => i.customer === session.customer)
        .sort((x, y) => (y.created as number) - (x.created as number)),
      cardLast4: subscription ? state.cardLast4(subscription.default_payment_method) : undefined,
      message,
    });
  }

  /** Portal actions. Upgrades apply at once and are invoiced with prorations; downgrades wait for the period's end. */
  function portalAction(session: Obj, action: string, form: Form): string {
    const subscription = [...state.subscriptions.values()].find(
      (s) => s.customer === session.customer && s.status !== "canceled",
    );
    if (!subscription) return "No active subscription.";
    if (action === "cancel") {
      state.setCancelAtPeriodEnd(subscription, true);
      return "Your plan will be canceled at the end of the period.";
    }
    if (action === "renew") {
      state.setCancelAtPeriodEnd(subscription, false);
      return "Your plan will renew.";
    }
    if (action === "card") {
      const card = state.attachCard(session.customer as string, text(form, "cardNumber") ?? "");
      if (!card.ok) return card.message;
      subscription.default_payment_method = card.paymentMethod;
      return "Card updated.";
    }
    if (action === "update") {
      const rules = updateRules(session);
      const price = rules.prices.find((p) => p.id === text(form, "price"));
      if (!price) return "Choose a plan.";
      const current = (subscription.items as { data: Obj[] }).data[0]!.price as Obj;
      if (price.id === current.id) {
        state.pendingPrices.delete(subscription.id);
        return "Plan unchanged.";
      }
      if ((price.unit_amount as number) > (current.unit_amount as number)) {
        state.changePrice(subscription, price, rules.proration);
        return "Plan upgraded.";
      }
      state.pendingPrices.set(subscription.id, price.id);
      return "Your plan will change at the end of the period.";
    }
    return "Unknown action.";
  }

  return async function hosted(req: IncomingMessage, res: ServerResponse, url: URL): Promise<boolean> {
    const pay = url.pathname.match(/^\/c\/pay\/([A-Za-z0-9_]+)$/);
    if (pay) {
      const session = state.sessions.get(pay[1]!);
      if (!session) {
        sendHtml(res, 404, "Not found");
        return true;
      }
      const price = state.priceOfSession(session.id);
      if (req.method === "POST" && session.status === "open") {
        const form = parseForm(await readBody(req));
        const outcome = state.payCheckout(session.id, text(form, "cardNumber") ?? "");
        if (outcome.ok) {
          redirect(res, (session.success_url as string).replace("{CHECKOUT_SESSION_ID}", session.id));
          return true;
        }
        sendHtml(res, 402, checkoutPage(session, price, outcome.message));
        return true;
      }
      sendHtml(res, 200, checkoutPage(session, price));
      return true;
    }
    const portal = url.pathname.match(/^\/p\/session\/([A-Za-z0-9_]+)(?:\/(update|cancel|renew|card))?$/);
    if (portal) {
      const session = state.portalSessions.get(portal[1]!);
      if (!session) {
        sendHtml(res, 404, "Not found");
        return true;
      }
      if (req.method === "POST" && portal[2]) {
        const message = portalAction(session, portal[2], parseForm(await readBody(req)));
        sendHtml(res, 200, portalView(session, message));
        return true;
      }
      sendHtml(res, 200, portalView(session));
      return true;
    }
    return false;
  };
}
