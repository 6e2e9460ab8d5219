// The admin API for tests: the clock, a card that stops paying or declines its next charges, the end of payment retries,
// webhook endpoints, delivery attempts, API calls made, customers by email.
import { invalid, missing } from "./http";
import type { StripeState } from "./state";
import type { WebhookDeliveries } from "./webhooks";

export function adminRoutes(
  state: StripeState,
  deliveries: WebhookDeliveries,
  calls: { method: string; path: string }[],
) {
  return async function admin(
    method: string,
    path: string,
    query: URLSearchParams,
    body: Record<string, unknown>,
  ): Promise<unknown> {
    if (method === "POST" && path === "/__admin/advance") {
      const seconds = Number(body.seconds);
      if (!Number.isFinite(seconds) || seconds < 0) throw invalid("seconds must be a number >= 0");
      state.advance(seconds);
      return { now: state.now() };
    }
    if (method === "POST" && path === "/__admin/fail_payments") {
      return { ok: state.failPayments(String(body.customer ?? "")) };
    }
    if (method === "POST" && path === "/__admin/fail_next_payment") {
      const count = body.count === undefined ? 1 : Number(body.count);
      if (!Number.isInteger(count) || count < 1) throw invalid("count must be an integer >= 1");
      return { ok: state.failNextPayments(String(body.customer ?? ""), count) };
    }
    if (method === "POST" && path === "/__admin/end_retries")
      return { ended: state.endRetries(typeof body.subscription === "string" ? body.subscription : undefined) };
    if (method === "POST" && path === "/__admin/webhook_endpoints") {
      if (typeof body.url !== "string" || typeof body.secret !== "string") throw invalid("url and secret are required");
      deliveries.endpoints.push({ url: body.url, secret: body.secret });
      return { ok: true };
    }
    if (method === "GET" && path === "/__admin/deliveries") return { attempts: deliveries.attempts };
    if (method === "POST" && path === "/__admin/settle") {
      await deliveries.settled();
      return { ok: true };
    }
    if (method === "GET" && path === "/__admin/calls") return { calls };
    if (method === "DELETE" && path === "/__admin/calls") {
      calls.length = 0;
      return { ok: true };
    }
    if (method === "GET" && path === "/__admin/clock") return { now: state.now() };
    if (method === "GET" && path === "/__admin/customers") {
      return {
        customers: [...state.customers.values()]
          .filter((c) => !query.get("email") || c.email === query.get("email"))
          .map((c) => c.id),
      };
    }
    throw missing("admin route", path);
  };
}
