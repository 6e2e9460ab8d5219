// Delivering events to endpoints, following Standard Webhooks: signed, at least once, in order per
// row, retried for a day, an endpoint failing for three days disabled. The headers, streams and
// giving up: README.md ("Delivery").
import { randomBytes } from "node:crypto";
import { Webhook } from "standardwebhooks";
import { getChangeEvent } from "@/db/queries/change-events";
import { sheetAccessState } from "@/db/queries/sheets";
import {
  cancelPendingStream,
  claimStreamHead,
  pendingStreams,
  recordDeliveryAttempt,
} from "@/db/queries/webhook-deliveries";
import { endpointAccount, getEndpoint, setEndpointHealth } from "@/db/queries/webhook-endpoints";
import type { ChangeEvent, WebhookDelivery, WebhookEndpoint } from "@/db/schema";
import { startRetentionSweeps } from "./retention";
import { decryptSecret, encryptSecret } from "@/lib/token-crypto";
import { config } from "@/lib/env";
import { errorFields, log } from "@/lib/log";
import { runDueJobs, startWorkers, wakeStreams, type StreamRef } from "./queue";
import { takeShare } from "./shares";
import { guardedPost } from "./target";
import { answerErrorText, deliveryErrorText } from "./delivery-errors";
import { metrics } from "@/lib/observability/metrics";

/** Seconds to wait after the n-th failed attempt (then the last figure), scaled by WEBHOOK_RETRY_SCALE. */
const RETRY_SCHEDULE_S = [5, 30, 120, 600, 1800, 3600, 7200, 14400, 21600];
const GIVE_UP_AFTER_S = 24 * 3600;
const DISABLE_AFTER_S = 3 * 24 * 3600;
/** A stream's drain gives others a turn after this many deliveries. */
const DRAIN_BATCH = 50;
const LEASE_S = 120;

const scale = () => config().env.WEBHOOK_RETRY_SCALE;
export const retryDelayMs = (failures: number) =>
  RETRY_SCHEDULE_S[Math.min(failures, RETRY_SCHEDULE_S.length) - 1]! * 1000 * scale();

export const newSecret = () => `whsec_${randomBytes(24).toString("base64")}`;
export const sealSecret = (secret: string) => encryptSecret(secret, config().secrets.encryptionKey);
/**
 * The secrets an attempt is signed with: the endpoint's, and for a day after each rotation the
 * ones it replaced too, so a receiver still verifying with an older secret keeps accepting
 * deliveries while it is updated (Standard Webhooks: several signatures, space-separated, any
 * may match).
 */
function openSecrets(endpoint: WebhookEndpoint, now = new Date()): string[] {
  const key = config().secrets.encryptionKey;
  return [endpoint.secretCiphertext, ...inGrace(endpoint.previousSecrets, now.getTime()).map((p) => p.ciphertext)].map(
    (c) => decryptSecret(c, key),
  );
}

/** The replaced secrets still in their grace at `now` (ms): those that sign beside the current one. */
export const inGrace = (previous: WebhookEndpoint["previousSecrets"], now: number) =>
  previous.filter((p) => Date.parse(p.until) > now);

/** The body every attempt of an event sends. */
export const eventBody = (event: ChangeEvent) =>
  JSON.stringify({ type: event.type, timestamp: event.createdAt.toISOString(), data: event.data });

/** `secrets`: one or more (a rotation's grace day); each signs, and the signatures are sent together. */
export function signedHeaders(secrets: string[], msgId: string, at: Date, body: string): Record<string, string> {
  return {
    "content-type": "application/json",
    "user-agent": "sheetapi-webhooks/1",
    "webhook-id": msgId,
    "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
    "webhook-signature": secrets.map((secret) => new Webhook(secret).sign(msgId, at, body)).join(" "),
  };
}

export interface AttemptOutcome {
  ok: boolean;
  status: number | null;
  latencyMs: number;
  error: string | null;
  response: string | null;
  requestHeaders: Record<string, string>;
}

/** One signed POST of the event to the endpoint. */
export async function attempt(endpoint: WebhookEndpoint, event: ChangeEvent, at = new Date()): Promise<AttemptOutcome> {
  const body = eventBody(event);
  const headers = signedHeaders(openSecrets(endpoint, at), event.id, at, body);
  const started = performance.now();
  try {
    const res = await guardedPost(endpoint.url, headers, body);
    const ok = res.status >= 200 && res.status < 300;
    return {
      ok,
      status: res.status,
      latencyMs: Math.round(performance.now() - started),
      error: ok ? null : answerErrorText(res.status, res.location),
      response: res.body,
      requestHeaders: redacted(headers),
    };
  } catch (err) {
    return {
      ok: false,
      status: null,
      latencyMs: Math.round(performance.now() - started),
      error: deliveryErrorText(err),
      response: null,
      requestHeaders: redacted(headers),
    };
  }
}

/** The log keeps the headers sent; the signature is kept too (it proves nothing without the secret). */
const redacted = (headers: Record<string, string>) => ({ ...headers });

async function record(
  endpoint: WebhookEndpoint,
  delivery: WebhookDelivery,
  outcome: AttemptOutcome,
): Promise<Date | undefined> {
  const now = new Date();
  const attempts = delivery.attempts + 1;
  metrics.webhookAttempt({ outcome: outcome.ok ? "delivered" : "failed" });
  const attempt = {
    status: outcome.status,
    latencyMs: outcome.latencyMs,
    error: outcome.error,
    requestHeaders: outcome.requestHeaders,
    response: outcome.response,
  };
  const last = {
    attempts,
    lastStatus: outcome.status,
    lastLatencyMs: outcome.latencyMs,
    lastError: outcome.error,
    lastResponse: outcome.response,
    leasedUntil: null,
  };
  if (outcome.ok) {
    await recordDeliveryAttempt({ id: delivery.id, attempt, set: { ...last, state: "delivered", deliveredAt: now } });
    await setEndpointHealth({ id: endpoint.id, set: { lastSuccessAt: now, failingSince: null } });
    return undefined;
  }
  const givingUp = now.getTime() - delivery.createdAt.getTime() >= GIVE_UP_AFTER_S * 1000 * scale();
  const next = new Date(now.getTime() + retryDelayMs(attempts));
  await recordDeliveryAttempt({
    id: delivery.id,
    attempt,
    set: { ...last, state: givingUp ? "failed" : "pending", nextAttemptAt: next },
  });
  const failingSince = endpoint.failingSince ?? now;
  if (now.getTime() - failingSince.getTime() >= DISABLE_AFTER_S * 1000 * scale()) {
    const reason = `Disabled on ${now.toISOString()}: every delivery failed since ${failingSince.toISOString()} (last: ${outcome.error ?? "no answer"}). Fix the receiver, then enable it again: undelivered events are sent then.`;
    await setEndpointHealth({ id: endpoint.id, set: { enabled: false, disabledReason: reason, failingSince } });
    log.warn({ endpoint: endpoint.id, sheet: endpoint.sheetId }, "webhooks: endpoint disabled after failing for days");
  } else if (!endpoint.failingSince) {
    await setEndpointHealth({ id: endpoint.id, set: { failingSince } });
  }
  return givingUp ? undefined : next;
}

/** The registrant of the sheet can no longer open it in Google (DECISIONS 18): nothing of it is sent. */
async function sheetSuspended(sheetId: string): Promise<boolean> {
  return (await sheetAccessState({ id: sheetId })) === "suspended";
}

/** Drops the stream's waiting deliveries: not sent later, even once access is restored. */
async function dropStream(ref: StreamRef): Promise<void> {
  await cancelPendingStream(ref);
}

/**
 * Delivers the stream's due events in order; schedules the next attempt when one fails. Within
 * its endpoint's and account's fair share (shares.ts): over it, the stream waits for a slot of
 * that share, and nothing is attempted.
 */
export async function drainStream(ref: StreamRef): Promise<void> {
  const accountId = await endpointAccount({ id: ref.endpointId });
  if (!accountId) return;
  const release = takeShare(accountId, ref);
  if (!release) return;
  try {
    await drainHeld(ref);
  } finally {
    release();
  }
}

async function drainHeld(ref: StreamRef): Promise<void> {
  for (let delivered = 0; delivered < DRAIN_BATCH; delivered++) {
    const endpoint = await getEndpoint({ id: ref.endpointId });
    if (!endpoint?.enabled) return;
    if (await sheetSuspended(endpoint.sheetId)) return dropStream(ref);
    const delivery = await claimStreamHead({ ...ref, leaseS: LEASE_S });
    if (!delivery) return;
    const event = await getChangeEvent({ seq: delivery.eventSeq });
    if (!event) continue;
    const outcome = await attempt(endpoint, event);
    const retryAt = await record(endpoint, delivery, outcome);
    if (retryAt) return wakeStreams([ref], retryAt);
  }
  await wakeStreams([ref]);
}

/** Due streams that have no job (jobs sent just before a crash, an endpoint enabled again). */
export async function wakeDueStreams(endpointId?: string): Promise<number> {
  const rows = await pendingStreams({ endpointId });
  await wakeStreams(rows);
  return rows.length;
}

/** Delivers what is due now, once (the serverless shape, lib/cron/tasks.ts); answers how many streams ran. */
export async function deliverDueOnce(budgetMs: number): Promise<number> {
  await wakeDueStreams();
  return runDueJobs(drainLogged, { budgetMs });
}

const drainLogged = (ref: StreamRef) =>
  drainStream(ref).catch((err: unknown) => {
    metrics.databaseError({ during: "webhooks" });
    log.warn({ endpoint: ref.endpointId, ...errorFields(err) }, "webhooks: drain failed");
    throw err;
  });

/** Starts delivering in this process (the server calls it at start; idempotent). */
export async function startDelivery(): Promise<void> {
  await startWorkers(drainLogged);
  await wakeDueStreams();
  startRetentionSweeps();
}
