// Stripe subscription statuses that keep a paid plan: `past_due` is the grace while Stripe
// retries a failed payment. Every other status (canceled, unpaid, incomplete, paused) is Free Trial.
export const PAYING = new Set<string>(["active", "trialing", "past_due"]);
