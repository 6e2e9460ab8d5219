import { handleStripeWebhook } from "@/lib/billing/webhook";
import { readTextBody } from "@/lib/http/body";
import { ok } from "@/lib/http/envelope";
import { otherMethods, route } from "@/lib/routes/route";

export const dynamic = "force-dynamic";

// POST /api/stripe/webhook - Stripe's signed events; the signature covers the raw body, read before anything parses it
export const POST = route(async ({ req, annotate }) => {
  const outcome = await handleStripeWebhook(await readTextBody(req), req.headers.get("stripe-signature"));
  annotate({ stripe_event: outcome });
  return ok({ received: true, outcome });
});
export const { GET, PUT, PATCH, DELETE } = otherMethods(["POST"]);
