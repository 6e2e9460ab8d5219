// What an owner does with a sheet's webhook endpoints: add (the secret is shown once), change,
// rotate the secret, remove, read the delivery log (resend and replay are in replay.ts).
// Every function takes the sheet id the owner was checked against, so an id from another sheet
// finds nothing.
import { randomBytes } from "node:crypto";
import { inTransaction, type Executor } from "@/db/queries/transaction";
import { deliveryCounts, recentDeliveries } from "@/db/queries/webhook-deliveries";
import {
  deleteEndpointOfSheet,
  getEndpointForSheet,
  insertEndpoint,
  listEndpoints as listSheetEndpoints,
  updateEndpointOfSheet,
} from "@/db/queries/webhook-endpoints";
import type { WebhookEndpoint } from "@/db/schema";
import { ApiError } from "@/lib/errors";
import { planLimits } from "@/lib/plans";
import { startTracking } from "./changes";
import { inGrace, newSecret, sealSecret, wakeDueStreams } from "./deliver";
import { EVENT_TYPES, type EventType } from "./diff";
import { checkTarget, TargetRefused } from "./target";

export interface EndpointInput {
  url: string;
  events?: string[];
  tabs?: string[];
}

async function checkedInput(input: EndpointInput): Promise<{ url: string; events: EventType[]; tabs: string[] }> {
  try {
    await checkTarget(input.url.trim());
  } catch (err) {
    if (err instanceof TargetRefused) throw new ApiError("validation_error", err.message);
    throw err;
  }
  const events = [...new Set(input.events ?? [])];
  const unknown = events.find((e) => !(EVENT_TYPES as readonly string[]).includes(e));
  if (unknown)
    throw new ApiError("validation_error", `events: "${unknown}" is not an event type (${EVENT_TYPES.join(", ")}).`);
  const tabs = [...new Set((input.tabs ?? []).map((t) => t.trim()).filter(Boolean))];
  return { url: input.url.trim(), events: events as EventType[], tabs };
}

export async function listEndpoints(sheetId: string): Promise<WebhookEndpoint[]> {
  return listSheetEndpoints({ sheetId });
}

/** Adds an endpoint; the secret is in the answer and nowhere else in clear. */
export async function addEndpoint(
  sheetId: string,
  plan: string,
  input: EndpointInput,
): Promise<{ endpoint: WebhookEndpoint; secret: string }> {
  const checked = await checkedInput(input);
  const existing = await listEndpoints(sheetId);
  const allowed = planLimits(plan).endpointsPerSheet;
  if (existing.length >= allowed)
    throw new ApiError(
      "forbidden",
      `Your plan allows ${allowed} webhook endpoint${allowed === 1 ? "" : "s"} per sheet; remove one or change plan.`,
    );
  const secret = newSecret();
  const endpoint = await insertEndpoint({
    id: `ep_${randomBytes(12).toString("base64url")}`,
    sheetId,
    ...checked,
    secretCiphertext: sealSecret(secret),
  });
  await startTracking(sheetId);
  return { endpoint, secret };
}

/** The sheet's endpoint; 404 when the sheet has no such endpoint. `forUpdate`: its row locked, in the transaction `db`. */
export async function owned(
  sheetId: string,
  endpointId: string,
  db?: Executor,
  { forUpdate = false } = {},
): Promise<WebhookEndpoint> {
  const endpoint = await getEndpointForSheet({ sheetId, endpointId, forUpdate }, db);
  if (!endpoint) throw new ApiError("not_found", "No such webhook endpoint for this sheet.");
  return endpoint;
}

export async function updateEndpoint(
  sheetId: string,
  endpointId: string,
  input: EndpointInput & { enabled: boolean },
): Promise<void> {
  const before = await owned(sheetId, endpointId);
  const checked = await checkedInput(input);
  await updateEndpointOfSheet({
    sheetId,
    endpointId,
    set: { ...checked, enabled: input.enabled, ...(input.enabled ? { disabledReason: null, failingSince: null } : {}) },
  });
  // Enabled again: what waited is sent now, in order.
  if (input.enabled && !before.enabled) await wakeDueStreams(endpointId);
}

/** How long the secret before a rotation still signs deliveries, beside the new one. */
export const ROTATION_GRACE_MS = 24 * 3600 * 1000;

/**
 * A new secret; the one it replaces keeps signing beside it for ROTATION_GRACE_MS, as do earlier
 * ones still in their grace (deliver.ts, openSecrets): rotating twice in a day breaks no receiver
 * that holds any of them. The endpoint's row is locked, so two rotations at once lose neither.
 */
export async function rotateSecret(sheetId: string, endpointId: string, now = Date.now()): Promise<string> {
  const secret = newSecret();
  await inTransaction(async (tx) => {
    const before = await owned(sheetId, endpointId, tx, { forUpdate: true });
    const previousSecrets = [
      { ciphertext: before.secretCiphertext, until: new Date(now + ROTATION_GRACE_MS).toISOString() },
      ...inGrace(before.previousSecrets, now),
    ];
    await updateEndpointOfSheet(
      { sheetId, endpointId, set: { secretCiphertext: sealSecret(secret), previousSecrets } },
      tx,
    );
  });
  return secret;
}

export async function removeEndpoint(sheetId: string, endpointId: string): Promise<void> {
  await owned(sheetId, endpointId);
  await deleteEndpointOfSheet({ sheetId, endpointId });
}

export interface LogEntry {
  id: string;
  state: string;
  attempts: number;
  lastStatus: number | null;
  lastLatencyMs: number | null;
  lastError: string | null;
  lastResponse: string | null;
  /** The headers of the last attempt (null before the first). */
  requestHeaders: Record<string, string> | null;
  nextAttemptAt: Date;
  deliveredAt: Date | null;
  createdAt: Date;
  event: {
    id: string;
    type: string;
    tab: string;
    rowId: string | null;
    source: string;
    data: unknown;
    createdAt: Date;
  };
}

/** The endpoint's most recent deliveries, newest first. */
export async function deliveryLog(sheetId: string, endpointId: string, limit = 50): Promise<LogEntry[]> {
  await owned(sheetId, endpointId);
  const rows = await recentDeliveries({ endpointId, limit });
  return rows.map(({ d, e, headers }) => ({
    id: d.id,
    state: d.state,
    attempts: d.attempts,
    lastStatus: d.lastStatus,
    lastLatencyMs: d.lastLatencyMs,
    lastError: d.lastError,
    lastResponse: d.lastResponse,
    requestHeaders: headers,
    nextAttemptAt: d.nextAttemptAt,
    deliveredAt: d.deliveredAt,
    createdAt: d.createdAt,
    event: {
      id: e.id,
      type: e.type,
      tab: e.tab,
      rowId: e.rowId,
      source: e.source,
      data: e.data,
      createdAt: e.createdAt,
    },
  }));
}

/** Backlog and progress, for /health and the dashboard. */
export async function deliveryProgress(sheetId?: string) {
  const r = await deliveryCounts({ sheetId });
  return {
    pending: Number(r.pending ?? 0),
    due: Number(r.due ?? 0),
    retrying: Number(r.retrying ?? 0),
    failed: Number(r.failed ?? 0),
    delivered_last_hour: Number(r.delivered_last_hour ?? 0),
    oldest_pending_seconds:
      r.oldest_pending_seconds === null || r.oldest_pending_seconds === undefined
        ? null
        : Math.round(Number(r.oldest_pending_seconds)),
  };
}
