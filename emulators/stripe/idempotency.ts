// Idempotent requests as Stripe keeps them: a POST's `Idempotency-Key` stores the first answer
// (success or 4xx) for 24 hours and replays it with `Idempotent-Replayed: true`; the same key
// with other parameters or another path is refused with an `idempotency_error`.
import { StripeError } from "./http";

interface Stored {
  path: string;
  body: string;
  status: number;
  answer: unknown;
  at: number;
}

const DAY_MS = 24 * 3600_000;

export class IdempotentRequests {
  private readonly stored = new Map<string, Stored>();

  /** The stored answer for `key`, or undefined when the request is new. */
  replay(key: string, path: string, body: string): { status: number; answer: unknown } | undefined {
    if (key.length > 255)
      throw new StripeError(400, {
        message: "Idempotency-Key must be at most 255 characters long.",
        type: "invalid_request_error",
      });
    const prior = this.stored.get(key);
    if (!prior || Date.now() - prior.at > DAY_MS) return undefined;
    if (prior.path !== path || prior.body !== body) {
      throw new StripeError(400, {
        message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key}' if you meant to execute a different request.`,
        type: "idempotency_error",
      });
    }
    return { status: prior.status, answer: prior.answer };
  }

  /** Stripe keeps successes and client errors; a 5xx may be retried with the same key. */
  keep(key: string, path: string, body: string, status: number, answer: unknown): void {
    if (status < 500) this.stored.set(key, { path, body, status, answer, at: Date.now() });
  }
}
