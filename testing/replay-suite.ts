// The replay suite: resends and replays are limited per account and never take an endpoint past
// its cap of undelivered deliveries, on PGlite (lib/webhooks/replay.test.ts) and the real
// Postgres (replay-postgres.test.ts). No worker runs, so what is queued stays pending.
import { randomUUID } from "node:crypto";
import { and, count, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser } from "@/db/queries/users";
import { changeEvents, webhookDeliveries } from "@/db/schema";
import { ACCOUNT_ACTION_LIMITS } from "@/lib/abuse/account-actions";
import { memoryStore, setLimitStore } from "@/lib/store/store";
import { proveAccessWithGoogle } from "@/testing/google";
import { startTestService, type TestService } from "@/testing/service";

const SA = "sheetapi-local@sheetapi-local.iam.gserviceaccount.com";

export function replaySuite(name: string, dbUrl: string | undefined) {
  describe(`webhook replays and resends on ${name}`, () => {
    let svc: TestService;
    let sheetId: string;
    let userId: string;
    let seqs: number[];
    const EVENTS = 12;
    const range = { from: new Date(Date.now() - 3_600_000), to: new Date(Date.now() + 3_600_000) };

    /** A fresh endpoint (the cap is per endpoint) already holding `waiting` undelivered deliveries. */
    const endpointWith = async (waiting: number) => {
      const { addEndpoint } = await import("@/lib/webhooks/endpoints");
      const { endpoint } = await addEndpoint(sheetId, "business", { url: "http://127.0.0.1:9/hooks" });
      await svc.db.db.execute(sql`
      insert into webhook_deliveries (id, endpoint_id, event_seq, stream)
      select 'dlv_waiting_' || ${endpoint.id} || '_' || g, ${endpoint.id}, ${seqs[0]!}, 'Items' || chr(31) || 'waiting'
      from generate_series(1, ${waiting}) g`);
      return endpoint.id;
    };
    const pending = async (endpointId: string) =>
      Number(
        (
          await svc.db.db
            .select({ n: count() })
            .from(webhookDeliveries)
            .where(and(eq(webhookDeliveries.endpointId, endpointId), eq(webhookDeliveries.state, "pending")))
        )[0]!.n,
      );

    beforeAll(async () => {
      svc = await startTestService({ postgresUrl: dbUrl, env: { WEBHOOK_ALLOWED_TARGETS: "127.0.0.1" } });
      setLimitStore(memoryStore());
      sheetId = String(
        (
          await svc.admin("/spreadsheets", {
            title: "Replays",
            members: { [SA]: "writer", "owner@example.com": "owner" },
            tabs: [
              {
                title: "Items",
                rows: [
                  ["id", "name"],
                  [1, "a"],
                ],
              },
            ],
          })
        ).spreadsheetId,
      );
      const { registerSheet } = await import("@/lib/sheets/registration/registration");
      const user = await createUser({ email: `replays-${randomUUID()}@example.com`, plan: "business" });
      userId = user.id;
      await proveAccessWithGoogle(user, [sheetId]);
      await registerSheet({ userId, sheetUrl: sheetId });
      const { newEventId } = await import("@/lib/webhooks/changes");
      const rows = Array.from({ length: EVENTS }, (_, i) => ({
        id: newEventId(),
        sheetId,
        type: "row.updated",
        tab: "Items",
        rowId: String(i + 1),
        source: "api",
        data: {},
      }));
      seqs = (await svc.db.db.insert(changeEvents).values(rows).returning({ seq: changeEvents.seq })).map((r) => r.seq);
    });
    afterAll(async () => {
      const { stopQueue } = await import("@/lib/webhooks/queue");
      await stopQueue();
      setLimitStore(undefined);
      await svc.stop();
    });

    it("a replay queues the range's first events up to the cap, and says how many it left out", async () => {
      const { PENDING_CAP, replayRange } = await import("@/lib/webhooks/replay");
      expect(PENDING_CAP).toBe(10_000);
      const endpointId = await endpointWith(PENDING_CAP - 5);
      const outcome = await replayRange({ userId: randomUUID(), sheetId, endpointId, ...range });
      expect(outcome).toMatchObject({ queued: 5, notQueued: EVENTS - 5, cap: PENDING_CAP });
      expect(outcome.message).toBe(
        "5 events queued again. 7 events of the range were not: an endpoint holds at most 10,000 deliveries waiting to be sent. Replay the rest once these are delivered.",
      );
      expect(await pending(endpointId)).toBe(PENDING_CAP);
      const queued = await svc.db.db
        .select({ seq: webhookDeliveries.eventSeq })
        .from(webhookDeliveries)
        .where(
          and(eq(webhookDeliveries.endpointId, endpointId), sql`${webhookDeliveries.id} not like 'dlv_waiting_%'`),
        );
      expect(queued.map((d) => d.seq).sort((a, b) => a - b)).toEqual(seqs.slice(0, 5));

      const again = await replayRange({ userId: randomUUID(), sheetId, endpointId, ...range });
      expect(again).toMatchObject({ queued: 0, notQueued: EVENTS });
      expect(again.message).toMatch(/^0 events queued again\. 12 events of the range were not/);
      expect(await pending(endpointId)).toBe(PENDING_CAP);
    });

    it("two replays at once share the room left rather than each filling it", async () => {
      const { PENDING_CAP, replayRange } = await import("@/lib/webhooks/replay");
      const endpointId = await endpointWith(PENDING_CAP - 8);
      const both = await Promise.all(
        [0, 1].map(() => replayRange({ userId: randomUUID(), sheetId, endpointId, ...range })),
      );
      expect(both.map((o) => o.queued).reduce((a, b) => a + b)).toBe(8);
      expect(await pending(endpointId)).toBe(PENDING_CAP);
    });

    it("a resend is refused at the cap, and both work again once deliveries are sent", async () => {
      const { PENDING_CAP, replayRange, resendDelivery } = await import("@/lib/webhooks/replay");
      const endpointId = await endpointWith(PENDING_CAP);
      const deliveryId = `dlv_waiting_${endpointId}_1`;
      await expect(resendDelivery({ userId: randomUUID(), sheetId, endpointId, deliveryId })).rejects.toMatchObject({
        code: "conflict",
        message: expect.stringMatching(/already has 10,000 deliveries waiting/),
      });
      await svc.db.db
        .update(webhookDeliveries)
        .set({ state: "delivered", deliveredAt: new Date() })
        .where(eq(webhookDeliveries.endpointId, endpointId));
      await resendDelivery({ userId: randomUUID(), sheetId, endpointId, deliveryId });
      const outcome = await replayRange({ userId: randomUUID(), sheetId, endpointId, ...range });
      expect(outcome).toMatchObject({ queued: EVENTS, notQueued: 0, message: "12 events queued again." });
      expect(await pending(endpointId)).toBe(EVENTS + 1);
    });

    it("limits replays and resends per account per hour, each with its own budget", async () => {
      const { replayRange, resendDelivery } = await import("@/lib/webhooks/replay");
      const endpointId = await endpointWith(1);
      const deliveryId = `dlv_waiting_${endpointId}_1`;
      const empty = { from: new Date(0), to: new Date(1000) };
      for (let i = 0; i < ACCOUNT_ACTION_LIMITS.replay; i++)
        await replayRange({ userId, sheetId, endpointId, ...empty });
      await expect(replayRange({ userId, sheetId, endpointId, ...empty })).rejects.toMatchObject({
        code: "rate_limit_exceeded",
        message: expect.stringMatching(/Too many webhook replays: at most 10 an hour/),
      });
      await resendDelivery({ userId, sheetId, endpointId, deliveryId }); // its own budget
      await replayRange({ userId: randomUUID(), sheetId, endpointId, ...empty }); // another account's
      // An endpoint that is not the sheet's is not found, and spends nothing.
      await expect(replayRange({ userId: "nobody", sheetId, endpointId: "ep_other", ...empty })).rejects.toMatchObject({
        code: "not_found",
      });
      for (let i = 1; i < ACCOUNT_ACTION_LIMITS.resend; i++)
        await resendDelivery({ userId, sheetId, endpointId, deliveryId });
      await expect(resendDelivery({ userId, sheetId, endpointId, deliveryId })).rejects.toMatchObject({
        code: "rate_limit_exceeded",
        message: expect.stringMatching(/webhook resends: at most 100 an hour/),
      });
    });
  });
}
