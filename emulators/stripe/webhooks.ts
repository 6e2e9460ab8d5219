// Signed event deliveries as Stripe makes them: a JSON POST with
// `Stripe-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>" under the endpoint secret>`,
// retried with growing delays while the endpoint does not answer 2xx.
import { createHmac } from "node:crypto";
import type { Obj } from "./model";

export interface WebhookEndpoint {
  url: string;
  secret: string;
}

export interface DeliveryAttempt {
  event: string;
  type: string;
  url: string;
  attempt: number;
  status: number | null;
  at: number;
}

export function signatureHeader(payload: string, secret: string, timestamp: number): string {
  const v1 = createHmac("sha256", secret).update(`${timestamp}.${payload}`, "utf8").digest("hex");
  return `t=${timestamp},v1=${v1}`;
}

/** Stripe retries for up to three days with exponential back-off; tests pass shorter delays. */
export const DEFAULT_RETRY_DELAYS_MS = [60_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 72_000_000];

export class WebhookDeliveries {
  readonly endpoints: WebhookEndpoint[] = [];
  readonly attempts: DeliveryAttempt[] = [];
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly inFlight = new Set<Promise<void>>();
  /** Retries still waiting to be sent (after the endpoint gave no 2xx). */
  private pendingRetries = 0;

  constructor(private readonly retryDelaysMs: number[]) {}

  /** Signatures carry the wall-clock time, as Stripe's do, even when the account's clock was moved on. */
  private wallClock(): number {
    return Math.floor(Date.now() / 1000);
  }

  deliver(event: Obj): void {
    for (const endpoint of this.endpoints) {
      event.pending_webhooks = (event.pending_webhooks as number) + 1;
      this.track(this.send(event, endpoint, 1));
    }
  }

  private track(work: Promise<void>): void {
    this.inFlight.add(work);
    void work.finally(() => this.inFlight.delete(work));
  }

  private async send(event: Obj, endpoint: WebhookEndpoint, attempt: number): Promise<void> {
    const payload = JSON.stringify(event, null, 2);
    let status: number | null = null;
    try {
      const res = await fetch(endpoint.url, {
        method: "POST",
        headers: {
          "content-type": "application/json; charset=utf-8",
          "user-agent": "Stripe/1.0 (+https://stripe.com/docs/webhooks)",
          "stripe-signature": signatureHeader(payload, endpoint.secret, this.wallClock()),
        },
        body: payload,
        signal: AbortSignal.timeout(10_000),
      });
      status = res.status;
      await res.arrayBuffer();
    } catch {
      status = null;
    }
    this.attempts.push({
      event: event.id,
      type: event.type as string,
      url: endpoint.url,
      attempt,
      status,
      at: this.wallClock(),
    });
    if (status !== null && status >= 200 && status < 300) {
      event.pending_webhooks = Math.max(0, (event.pending_webhooks as number) - 1);
      return;
    }
    const delay = this.retryDelaysMs[attempt - 1];
    if (delay === undefined) return;
    this.pendingRetries += 1;
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      this.pendingRetries -= 1;
      this.track(this.send(event, endpoint, attempt + 1));
    }, delay);
    this.timers.add(timer);
  }

  /** Resolves once every delivery under way (retries included) has finished. */
  async settled(): Promise<void> {
    while (this.inFlight.size || this.pendingRetries)
      await Promise.race([...this.inFlight, new Promise((r) => setTimeout(r, 20))]);
  }

  stop(): void {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    this.pendingRetries = 0;
  }
}
