// emulators/stripe: the part of Stripe's API a subscription business uses, its hosted pages, signed
// webhook deliveries and an admin API for tests, on one loopback port (emulators/stripe/README.md).
// The official `stripe` client reaches it through its `host`, `port` and `protocol` options.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { adminRoutes } from "./admin";
import { parseForm, text, type Form } from "./form";
import { hostedPages } from "./hosted";
import { IdempotentRequests } from "./idempotency";
import { invalid, missing, readBody, sendHtml, sendJson, StripeError } from "./http";
import { listObject, newId, type Obj, type PriceSeed } from "./model";
import { portalConfiguration } from "./portal-config";
import { StripeState } from "./state";
import { DEFAULT_RETRY_DELAYS_MS, WebhookDeliveries, type WebhookEndpoint } from "./webhooks";

export interface StripeEmulatorOptions {
  port?: number;
  host?: string;
  /** The secret key clients must present (`sk_test_...`). */
  secretKey: string;
  prices: PriceSeed[];
  webhooks?: WebhookEndpoint[];
  retryDelaysMs?: number[];
  log?: (line: string) => void;
  /** Sees every API answer (tests check each against Stripe's OpenAPI description). */
  onAnswer?: (answer: { method: string; path: string; status: number; body: unknown }) => void;
}

export interface StripeEmulator {
  url: string;
  port: number;
  state: StripeState;
  deliveries: WebhookDeliveries;
  calls: { method: string; path: string }[];
  stop(): Promise<void>;
}

function metadataOf(form: Form): Record<string, string> {
  const value = form.metadata;
  if (value === undefined || value === "") return {};
  if (typeof value !== "object" || Array.isArray(value)) throw invalid("Invalid object", "metadata");
  return Object.fromEntries(Object.entries(value).filter(([, v]) => typeof v === "string")) as Record<string, string>;
}

function limitOf(params: URLSearchParams): number {
  const raw = params.get("limit");
  if (raw === null) return 10;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > 100)
    throw invalid("This value must be greater than or equal to 1 and less than or equal to 100.", "limit");
  return n;
}

export async function startStripeEmulator(options: StripeEmulatorOptions): Promise<StripeEmulator> {
  let baseUrl = "";
  const deliveries = new WebhookDeliveries(options.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS);
  const state: StripeState = new StripeState(
    options.prices,
    () => baseUrl,
    (event) => deliveries.deliver(event),
  );
  deliveries.endpoints.push(...(options.webhooks ?? []));
  const calls: { method: string; path: string }[] = [];

  const subscriptionOf = (id: string) =>
    state.subscriptions.get(id) ??
    (() => {
      throw missing("subscription", id);
    })();
  const customerOf = (id: string, param = "customer") =>
    state.customers.get(id) ??
    (() => {
      throw missing("customer", id, param);
    })();
  const priceOf = (id: string, param = "price") =>
    state.prices.get(id) ??
    (() => {
      throw missing("price", id, param);
    })();

  async function api(method: string, path: string, params: URLSearchParams, form: Form): Promise<unknown> {
    if (params.has("expand[]") || params.has("expand[0]") || form.expand !== undefined)
      throw invalid("Expanding responses is not available in this emulator.", "expand");
    const parts = path.split("/").filter(Boolean).slice(1);
    const [a, b, c] = parts;
    if (method === "POST" && path === "/v1/customers") {
      return state.createCustomer({ email: text(form, "email"), name: text(form, "name"), metadata: metadataOf(form) });
    }
    if (method === "GET" && a === "customers" && b && !c) return customerOf(b, "id");
    if (method === "GET" && path === "/v1/prices")
      return listObject("/v1/prices", [...state.prices.values()].slice(0, limitOf(params)));
    if (method === "GET" && a === "prices" && b && !c) return priceOf(b, "id");
    if (method === "POST" && path === "/v1/checkout/sessions") return createCheckoutSession(form);
    if (method === "GET" && path === "/v1/checkout/sessions") return listCheckoutSessions(params);
    if (a === "checkout" && b === "sessions" && c) {
      const session =
        state.sessions.get(c) ??
        (() => {
          throw missing("checkout.session", c, "session");
        })();
      if (method === "GET" && parts.length === 3) return session;
      if (method === "POST" && parts[3] === "expire" && parts.length === 4) {
        if (session.status !== "open")
          throw invalid(
            `Only Checkout Sessions with a status in ["open"] can be expired. This Checkout Session has a status of "${String(session.status)}".`,
          );
        state.expireCheckoutSession(session);
        return session;
      }
    }
    if (method === "GET" && path === "/v1/subscriptions") return listSubscriptions(params);
    if (a === "subscriptions" && b && !c) {
      const subscription = subscriptionOf(b);
      if (method === "GET") return subscription;
      if (method === "POST") return updateSubscription(subscription, form);
      if (method === "DELETE") return cancelSubscription(subscription, form);
    }
    if (method === "GET" && path === "/v1/invoices") return listInvoices(params);
    if (method === "GET" && path === "/v1/invoices/upcoming") return upcoming(params);
    if (method === "GET" && a === "invoices" && b && !c)
      return (
        state.invoices.get(b) ??
        (() => {
          throw missing("invoice", b);
        })()
      );
    if (method === "POST" && path === "/v1/billing_portal/sessions") return createPortalSession(form);
    if (method === "POST" && path === "/v1/billing_portal/configurations") {
      const configuration = portalConfiguration(form, state.now(), (id) => state.prices.has(id), metadataOf(form));
      state.portalConfigurations.set(configuration.id, configuration);
      return configuration;
    }
    if (method === "GET" && path === "/v1/billing_portal/configurations") {
      const active = params.get("active");
      const all = [...state.portalConfigurations.values()].filter(
        (x) => active === null || String(x.active) === active,
      );
      const limit = limitOf(params);
      return listObject("/v1/billing_portal/configurations", all.slice(0, limit), all.length > limit);
    }
    if (method === "GET" && a === "billing_portal" && b === "configurations" && c && parts.length === 3) {
      return (
        state.portalConfigurations.get(c) ??
        (() => {
          throw missing("billing_portal.configuration", c, "configuration");
        })()
      );
    }
    if (method === "POST" && path === "/v1/refunds") {
      return state.refunds.create({
        charge: text(form, "charge"),
        paymentIntent: text(form, "payment_intent"),
        amount: text(form, "amount"),
        reason: text(form, "reason"),
        metadata: metadataOf(form),
      });
    }
    if (method === "GET" && path === "/v1/refunds") return state.refunds.list(params, limitOf(params));
    if (method === "GET" && a === "events" && b && !c)
      return (
        state.events.get(b) ??
        (() => {
          throw missing("event", b);
        })()
      );
    throw new StripeError(404, {
      message: `Unrecognized request URL (${method}: ${path}). Please see https://stripe.com/docs or we can help at https://support.stripe.com/.`,
      type: "invalid_request_error",
    });
  }

  function createCheckoutSession(form: Form): Obj {
    if (text(form, "mode") !== "subscription")
      throw invalid("This emulator offers Checkout in subscription mode only.", "mode");
    const successUrl = text(form, "success_url");
    if (!successUrl) throw invalid("Missing required param: success_url.", "success_url");
    const customerId = text(form, "customer");
    if (!customerId) throw invalid("Missing required param: customer.", "customer");
    const customer = customerOf(customerId);
    const items = form.line_items;
    const first = Array.isArray(items) ? items[0] : undefined;
    if (!first || typeof first !== "object" || Array.isArray(first) || (Array.isArray(items) && items.length !== 1))
      throw invalid("Exactly one line item is supported.", "line_items");
    const priceId = text(first, "price");
    if (!priceId) throw invalid("Missing required param: line_items[0][price].", "line_items[0][price]");
    const price = priceOf(priceId, "line_items[0][price]");
    const quantity = text(first, "quantity") ?? "1";
    if (quantity !== "1") throw invalid("Only a quantity of 1 is supported.", "line_items[0][quantity]");
    return state.createCheckoutSession({
      customer: customer.id,
      price,
      successUrl,
      cancelUrl: text(form, "cancel_url") ?? null,
      clientReferenceId: text(form, "client_reference_id") ?? null,
      metadata: metadataOf(form),
    });
  }

  function listCheckoutSessions(params: URLSearchParams): unknown {
    const status = params.get("status");
    if (status !== null && !["complete", "expired", "open"].includes(status))
      throw invalid("Invalid status: must be one of complete, expired, or open", "status");
    const [customer, subscription] = [params.get("customer"), params.get("subscription")];
    const all = [...state.sessions.values()].filter(
      (x) =>
        (!customer || x.customer === customer) &&
        (!status || x.status === status) &&
        (!subscription || x.subscription === subscription),
    );
    all.sort((x, y) => (y.created as number) - (x.created as number));
    const limit = limitOf(params);
    return listObject("/v1/checkout/sessions", all.slice(0, limit), all.length > limit);
  }

  /** `DELETE /v1/subscriptions/{id}`: ends it now. Final invoices and proration credits are not emulated, and are refused rather than ignored. */
  function cancelSubscription(subscription: Obj, form: Form): Obj {
    if (subscription.status === "canceled")
      throw invalid("A canceled subscription can only update its cancellation_details and metadata.");
    for (const name of ["invoice_now", "prorate"]) {
      const value = text(form, name);
      if (value !== undefined && value !== "true" && value !== "false")
        throw invalid(`Invalid boolean: ${value}`, name);
      if (value === "true") throw invalid(`${name}=true is not available in this emulator.`, name);
    }
    const details = form.cancellation_details;
    if (details !== undefined && (typeof details !== "object" || Array.isArray(details)))
      throw invalid("Invalid object", "cancellation_details");
    state.cancelNow(subscription, {
      comment: details ? text(details, "comment") : undefined,
      feedback: details ? text(details, "feedback") : undefined,
    });
    return subscription;
  }

  function listSubscriptions(params: URLSearchParams): unknown {
    const customer = params.get("customer");
    const status = params.get("status");
    const all = [...state.subscriptions.values()].filter(
      (s) =>
        (!customer || s.customer === customer) &&
        (status === "all"
          ? true
          : status
            ? s.status === status
            : s.status !== "canceled" && s.status !== "incomplete_expired"),
    );
    all.sort((x, y) => (y.created as number) - (x.created as number));
    const limit = limitOf(params);
    return listObject("/v1/subscriptions", all.slice(0, limit), all.length > limit);
  }

  function updateSubscription(subscription: Obj, form: Form): Obj {
    if (subscription.status === "canceled")
      throw invalid("A canceled subscription can only update its cancellation_details and metadata.");
    const cancel = text(form, "cancel_at_period_end");
    if (cancel !== undefined) {
      if (cancel !== "true" && cancel !== "false") throw invalid("Invalid boolean: " + cancel, "cancel_at_period_end");
      state.setCancelAtPeriodEnd(subscription, cancel === "true");
    }
    const items = form.items;
    if (items !== undefined) {
      const first = Array.isArray(items) ? items[0] : undefined;
      if (!first || typeof first !== "object" || Array.isArray(first)) throw invalid("Invalid array", "items");
      const itemId = text(first, "id");
      const current = (subscription.items as { data: Obj[] }).data[0]!;
      if (itemId !== current.id) throw invalid(`Invalid subscription item: ${itemId ?? ""}`, "items[0][id]");
      const priceId = text(first, "price");
      if (!priceId) throw invalid("Missing required param: items[0][price].", "items[0][price]");
      const behavior = text(form, "proration_behavior") ?? "create_prorations";
      if (!["create_prorations", "always_invoice", "none"].includes(behavior))
        throw invalid(
          `Invalid proration_behavior: must be one of create_prorations, always_invoice, or none`,
          "proration_behavior",
        );
      state.changePrice(subscription, priceOf(priceId, "items[0][price]"), behavior);
    }
    return subscription;
  }

  function listInvoices(params: URLSearchParams): unknown {
    const customer = params.get("customer");
    const subscription = params.get("subscription");
    const status = params.get("status");
    if (status !== null && !["draft", "open", "paid", "uncollectible", "void"].includes(status))
      throw invalid("Invalid status: must be one of draft, open, paid, uncollectible, or void", "status");
    const all = [...state.invoices.values()].filter(
      (i) =>
        (!customer || i.customer === customer) &&
        (!subscription || i.subscription === subscription) &&
        (!status || i.status === status),
    );
    all.sort((x, y) => (y.created as number) - (x.created as number));
    const limit = limitOf(params);
    return listObject("/v1/invoices", all.slice(0, limit), all.length > limit);
  }

  function upcoming(params: URLSearchParams): unknown {
    const customer = params.get("customer");
    if (!customer) throw invalid("Missing required param: customer.", "customer");
    customerOf(customer);
    const wanted = params.get("subscription");
    const subscription = [...state.subscriptions.values()].find(
      (s) =>
        s.customer === customer && (!wanted || s.id === wanted) && (s.status === "active" || s.status === "past_due"),
    );
    const invoice = subscription && state.upcomingInvoice(subscription);
    if (!invoice)
      throw new StripeError(404, {
        code: "invoice_upcoming_none",
        doc_url: "https://stripe.com/docs/error-codes/invoice-upcoming-none",
        message: `No upcoming invoices for customer: ${customer}`,
        type: "invalid_request_error",
      });
    return invoice;
  }

  function createPortalSession(form: Form): Obj {
    const customerId = text(form, "customer");
    if (!customerId) throw invalid("Missing required param: customer.", "customer");
    customerOf(customerId);
    const configuration = text(form, "configuration");
    if (configuration !== undefined && !state.portalConfigurations.has(configuration))
      throw missing("billing_portal.configuration", configuration, "configuration");
    const id = newId("bps");
    const session: Obj = {
      id,
      object: "billing_portal.session",
      configuration: configuration ?? "bpc_emulated_default",
      created: state.now(),
      customer: customerId,
      flow: null,
      livemode: false,
      locale: null,
      on_behalf_of: null,
      return_url: text(form, "return_url") ?? null,
      url: `${baseUrl}/p/session/${id}`,
    };
    state.portalSessions.set(id, session);
    return session;
  }

  const admin = adminRoutes(state, deliveries, calls);
  const idempotent = new IdempotentRequests();
  const hosted = hostedPages(state);

  const server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? "/", "http://localhost");
      const method = req.method ?? "GET";
      try {
        if (url.pathname.startsWith("/__admin/")) {
          const raw = await readBody(req);
          sendJson(
            res,
            200,
            await admin(
              method,
              url.pathname,
              url.searchParams,
              raw ? (JSON.parse(raw) as Record<string, unknown>) : {},
            ),
          );
          return;
        }
        if (url.pathname.startsWith("/v1/")) {
          const auth = req.headers.authorization ?? "";
          const key = auth.startsWith("Bearer ")
            ? auth.slice(7)
            : auth.startsWith("Basic ")
              ? Buffer.from(auth.slice(6), "base64").toString().replace(/:$/, "")
              : "";
          if (key !== options.secretKey) {
            throw new StripeError(401, {
              message: key
                ? `Invalid API Key provided: ${key.slice(0, 8)}${"*".repeat(Math.max(0, key.length - 12))}${key.slice(-4)}`
                : "You did not provide an API key.",
              type: "invalid_request_error",
            });
          }
          calls.push({ method, path: url.pathname });
          const raw = method === "GET" || method === "DELETE" ? url.search.slice(1) : await readBody(req);
          const idempotencyKey = method === "POST" ? req.headers["idempotency-key"] : undefined;
          if (typeof idempotencyKey === "string") {
            const replayed = idempotent.replay(idempotencyKey, url.pathname, raw);
            if (replayed) {
              sendJson(res, replayed.status, replayed.answer, { "idempotent-replayed": "true" });
              options.log?.(`${method} ${url.pathname} ${replayed.status} (replayed)`);
              return;
            }
          }
          let status = 200;
          let body: unknown;
          try {
            body = await api(method, url.pathname, url.searchParams, parseForm(raw));
          } catch (error) {
            if (!(error instanceof StripeError)) throw error;
            [status, body] = [error.status, { error: error.body }];
          }
          if (typeof idempotencyKey === "string") idempotent.keep(idempotencyKey, url.pathname, raw, status, body);
          options.onAnswer?.({ method, path: url.pathname, status, body });
          sendJson(res, status, body);
          options.log?.(`${method} ${url.pathname} ${status}`);
          return;
        }
        if (await hosted(req, res, url)) return;
        sendHtml(res, 404, "Not found");
      } catch (error) {
        if (error instanceof StripeError) {
          if (url.pathname.startsWith("/v1/"))
            options.onAnswer?.({ method, path: url.pathname, status: error.status, body: { error: error.body } });
          sendJson(res, error.status, { error: error.body });
          options.log?.(`${method} ${url.pathname} ${error.status}`);
        } else {
          sendJson(res, 500, { error: { message: "An unknown error occurred", type: "api_error" } });
          options.log?.(`${method} ${url.pathname} 500 ${(error as Error).stack}`);
        }
      }
    })();
  });

  await new Promise<void>((resolve) => server.listen(options.port ?? 0, options.host ?? "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  baseUrl = `http://${options.host ?? "127.0.0.1"}:${port}`;
  return {
    url: baseUrl,
    port,
    state,
    deliveries,
    calls,
    async stop() {
      deliveries.stop();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
