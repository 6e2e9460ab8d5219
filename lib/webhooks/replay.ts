// Sending past events again at the owner's request: one delivery (resend) or every event of a time
// range (replay), limited per account and capped at PENDING_CAP undelivered per endpoint. Why, and
// why new changes are not capped: README.md ("Resend and replay").
import { randomBytes } from "node:crypto";
import { countEventsInRange, eventsInRange } from "@/db/queries/change-events";
import { inTransaction, type Executor } from "@/db/queries/transaction";
import { countPendingDeliveries, getDeliveryOfEndpoint, insertDeliveries } from "@/db/queries/webhook-deliveries";
import { endpointOfSheetExists, getEndpointForSheet } from "@/db/queries/webhook-endpoints";
import type { WebhookEndpoint } from "@/db/schema";
import { limitAccountAction } from "@/lib/abuse/account-actions";
import { ApiError } from "@/lib/errors";
import { streamOf } from "./changes";
import { wakeStreams } from "./queue";

/** Undelivered deliveries an endpoint may hold before a resend or replay adds to them. */
export const PENDING_CAP = 10_000;

const newDeliveryId = () => `dlv_${randomBytes(12).toString("base64url")}`;

/** Who asks, for which of the sheet's endpoints. */
interface Scope {
  userId: string;
  sheetId: string;
  endpointId: string;
}

/**
 * Checks the endpoint is the sheet's, spends one of the account's `action`s, then runs `work`
 * with the endpoint's row locked (so two replays at once cannot both fill the same room) and
 * the room left under the cap.
 */
async function withRoom<T>(
  { userId, sheetId, endpointId }: Scope,
  action: "replay" | "resend",
  work: (tx: Executor, endpoint: WebhookEndpoint, room: number) => Promise<T>,
): Promise<T> {
  if (!(await endpointOfSheetExists({ sheetId, endpointId })))
    throw new ApiError("not_found", "No such webhook endpoint for this sheet.");
  await limitAccountAction(userId, action);
  return inTransaction(async (tx) => {
    const endpoint = await getEndpointForSheet({ sheetId, endpointId, forUpdate: true }, tx);
    if (!endpoint) throw new ApiError("not_found", "No such webhook endpoint for this sheet.");
    const pending = await countPendingDeliveries({ endpointId }, tx);
    return work(tx, endpoint, Math.max(0, PENDING_CAP - pending));
  });
}

/** Sends a delivery's event again (same webhook-id: a receiver that has it can ignore it). */
export async function resendDelivery(request: Scope & { deliveryId: string }): Promise<void> {
  const stream = await withRoom(request, "resend", async (tx, endpoint, room) => {
    const original = await getDeliveryOfEndpoint({ endpointId: endpoint.id, id: request.deliveryId }, tx);
    if (!original) throw new ApiError("not_found", "No such delivery for this endpoint.");
    if (!room)
      throw new ApiError(
        "conflict",
        `This endpoint already has ${PENDING_CAP.toLocaleString("en-US")} deliveries waiting to be sent; resend once they are delivered or given up.`,
      );
    await insertDeliveries(
      [{ id: newDeliveryId(), endpointId: endpoint.id, eventSeq: original.eventSeq, stream: original.stream }],
      tx,
    );
    return original.stream;
  });
  await wakeStreams([{ endpointId: request.endpointId, stream }]);
}

export interface ReplayOutcome {
  /** Events queued again. */
  queued: number;
  /** Events of the range left out because the endpoint reached the cap. */
  notQueued: number;
  cap: number;
  /** The outcome as the dashboard shows it. */
  message: string;
}

const nEvents = (n: number) => `${n.toLocaleString("en-US")} event${n === 1 ? "" : "s"}`;

function replayMessage(queued: number, notQueued: number): string {
  const done = `${nEvents(queued)} queued again.`;
  if (!notQueued) return done;
  return `${done} ${nEvents(notQueued)} of the range ${notQueued === 1 ? "was" : "were"} not: an endpoint holds at most ${PENDING_CAP.toLocaleString("en-US")} deliveries waiting to be sent. Replay the rest once these are delivered.`;
}

/** Sends again, in order, the sheet's events from `from` to `to` that the endpoint wants, up to the cap. */
export async function replayRange(request: Scope & { from: Date; to: Date }): Promise<ReplayOutcome> {
  if (!(request.from <= request.to))
    throw new ApiError("validation_error", "The range's start must be before its end.");
  const { deliveries, notQueued } = await withRoom(request, "replay", async (tx, endpoint, room) => {
    const wanted = {
      sheetId: request.sheetId,
      from: request.from,
      to: request.to,
      types: endpoint.events,
      tabs: endpoint.tabs,
    };
    const events = room ? await eventsInRange({ ...wanted, limit: room }, tx) : [];
    // Only a range that filled the room can have more: count it then, to say how many were left out.
    const total = events.length < room ? events.length : await countEventsInRange(wanted, tx);
    const deliveries = events.map((e) => ({
      id: newDeliveryId(),
      endpointId: endpoint.id,
      eventSeq: e.seq,
      stream: streamOf(e.tab, e.rowId),
    }));
    await insertDeliveries(deliveries, tx);
    return { deliveries, notQueued: total - events.length };
  });
  await wakeStreams(
    [...new Set(deliveries.map((d) => d.stream))].map((stream) => ({ endpointId: request.endpointId, stream })),
  );
  return {
    queued: deliveries.length,
    notQueued,
    cap: PENDING_CAP,
    message: replayMessage(deliveries.length, notQueued),
  };
}
