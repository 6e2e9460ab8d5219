// The webhook suite: change events and deliveries end to end, in-process: the rows API and the tab cache
// against emulators/google, events from API writes and from edits made "in the Sheets UI",
// Standard Webhooks signatures, retries until a failing receiver recovers, a restart with a
// backlog, on PGlite and on the real Postgres.
import { randomUUID } from "node:crypto";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser } from "@/db/queries/users";
import { memoryStore, setLimitStore } from "@/lib/store/store";
import { metricNow } from "@/testing/metrics";
import { callRoute } from "@/testing/routes";
import { rowsClient } from "@/testing/rows-client";
import { registeredKey } from "@/testing/google";
import { startTestService, type TestService } from "@/testing/service";

const SA = "sheetapi-local@sheetapi-local.iam.gserviceaccount.com";
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

/** A receiver that answers `failing` requests with 500 before it recovers. */
function receiver() {
  const got: Received[] = [];
  let failing = 0;
  let answered = 0;
  const server: Server = createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString()));
    req.on("end", () => {
      answered++;
      if (failing > 0) {
        failing--;
        res.writeHead(500).end("not now");
        return;
      }
      got.push({ headers: req.headers, body });
      res.writeHead(204).end();
    });
  });
  return {
    got,
    answered: () => answered,
    failNext: (n: number) => (failing = n),
    url: async () => {
      await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
      return `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
    },
    close: () => new Promise((r) => server.close(r)),
  };
}

async function until<T>(what: string, probe: () => Promise<T | undefined> | T | undefined, ms = 15_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

/** The suite, on PGlite (webhooks.test.ts) or the real Postgres (webhooks-postgres.test.ts). */
export function webhookSuite(name: string, dbUrl: string | undefined) {
  describe(`webhooks on ${name}`, () => {
    let svc: TestService;
    let sheetId: string;
    let api: ReturnType<typeof rowsClient>;
    let hook: ReturnType<typeof receiver>;
    let secret: string;
    let endpointId: string;
    let userId: string;

    const events = async (query = "") => {
      const mod = await import("@/app/api/[sheetId]/events/route");
      const res = await callRoute(mod.GET, {
        path: `/api/${sheetId}/events${query ? `?${query}` : ""}`,
        params: { sheetId },
        headers: { "X-API-Key": api.key },
      });
      expect(res.status).toBe(200);
      return res.body.data as { id: string; seq: number; type: string; data: Record<string, unknown> }[];
    };
    let cursor = 0;
    /** Events since the last call (waiting up to a few seconds for `count` of them). */
    const newEvents = async (count: number) => {
      const list = await until(
        `${count} events`,
        async () => {
          const found = await events(`after=${cursor}`);
          return found.length >= count ? found : undefined;
        },
        5000,
      );
      cursor = list.at(-1)!.seq;
      return list;
    };
    const delivered = () =>
      new Map(
        hook.got.map((m) => [
          String(m.headers["webhook-id"]),
          JSON.parse(m.body) as { type: string; data: Record<string, unknown> },
        ]),
      );

    beforeAll(async () => {
      svc = await startTestService({
        postgresUrl: dbUrl,
        env: {
          CHANGE_CHECK_INTERVAL_MS: "600000",
          WEBHOOK_ALLOWED_TARGETS: "127.0.0.1",
          WEBHOOK_RETRY_SCALE: "0.0002",
        },
      });
      setLimitStore(memoryStore());
      sheetId = String(
        (
          await svc.admin("/spreadsheets", {
            title: "Hooks",
            members: { [SA]: "writer", "owner@example.com": "owner" },
            tabs: [
              {
                title: "Items",
                rows: [
                  ["id", "name", "qty"],
                  [1, "apple", 3],
                  [2, "pear", 5],
                ],
              },
              {
                title: "People",
                rows: [
                  ["name", "team"],
                  ["ada", "eng"],
                  ["grace", "eng"],
                ],
              },
            ],
          })
        ).spreadsheetId,
      );
      const user = await createUser({ email: `hooks-${randomUUID()}@example.com`, plan: "business" });
      userId = user.id;
      api = rowsClient(sheetId, await registeredKey(user, sheetId));
      hook = receiver();
      const { addEndpoint } = await import("@/lib/webhooks/endpoints");
      const added = await addEndpoint(sheetId, "business", { url: await hook.url() });
      secret = added.secret;
      endpointId = added.endpoint.id;
      const { startDelivery } = await import("@/lib/webhooks/deliver");
      await startDelivery();
      // The starting copies: the first reads after tracking began.
      await api.list("Items", "", { "Cache-Control": "no-cache" });
      await api.list("People", "", { "Cache-Control": "no-cache" });
      await sleep(200);
    });
    afterAll(async () => {
      const { stopQueue } = await import("@/lib/webhooks/queue");
      await stopQueue();
      await hook.close();
      setLimitStore(undefined);
      await svc.stop();
    });

    it("API writes produce their events at once, and a re-read does not produce them again", async () => {
      expect(await events(`after=${cursor}`)).toEqual([]);
      const created = await api.create("Items", { name: "plum", qty: 7 });
      expect(created.status).toBe(201);
      // At once: listed before anything re-reads the tab.
      const afterCreate = await events(`after=${cursor}`);
      expect(afterCreate.map((e) => [e.type, e.data.row_id, e.data.source])).toEqual([["row.created", "3", "api"]]);
      expect(afterCreate[0]!.data.row).toEqual({ id: "3", name: "plum", qty: "7" });
      expect((await api.update("Items", "1", { qty: 4 })).status).toBe(200);
      expect((await api.remove("Items", "2")).status).toBe(200);
      const list = await newEvents(3);
      expect(list.map((e) => e.type)).toEqual(["row.created", "row.updated", "row.deleted"]);
      expect(list[1]!.data).toMatchObject({
        tab: "Items",
        row_id: "1",
        source: "api",
        changes: { qty: { before: "3", after: "4" } },
        previous: { id: "1", name: "apple", qty: "3" },
      });
      expect(list[2]!.data).toMatchObject({ row_id: "2", row: { id: "2", name: "pear", qty: "5" } });
      await api.list("Items", "", { "Cache-Control": "no-cache" });
      await sleep(300);
      expect(await events(`after=${cursor}`)).toEqual([]);
    });

    it("an edit made in the Sheets UI produces exactly its events when the tab is read again", async () => {
      await svc.admin(`/spreadsheets/${sheetId}/values`, { range: "Items!B2", values: [["green apple"]] });
      await svc.admin(`/spreadsheets/${sheetId}/values`, { range: "Items!A5:C5", values: [["8", "fig", "2"]] });
      await svc.admin(`/spreadsheets/${sheetId}/values`, { range: "People!B3", values: [["research"]] });
      await api.list("Items", "", { "Cache-Control": "no-cache" });
      await api.list("People", "", { "Cache-Control": "no-cache" });
      const list = await newEvents(3);
      await sleep(300);
      expect(await events(`after=${cursor}`)).toEqual([]);
      expect(list.map((e) => [e.type, e.data.tab, e.data.row_id, e.data.source])).toEqual(
        expect.arrayContaining([
          ["row.updated", "Items", "1", "sheet"],
          ["row.created", "Items", "8", "sheet"],
          ["row.updated", "People", "3", "sheet"],
        ]),
      );
      expect(list.length).toBe(3);
      expect(list.find((e) => e.data.row_id === "1")!.data.changes).toEqual({
        name: { before: "apple", after: "green apple" },
      });
      expect(list.find((e) => e.data.tab === "People")!.data).toMatchObject({
        row: { id: "3", name: "grace", team: "research" },
        changes: { team: { before: "eng", after: "research" } },
      });
    });

    it("a header change is one schema.changed event", async () => {
      await svc.admin(`/spreadsheets/${sheetId}/values`, { range: "People!C1", values: [["since"]] });
      await api.list("People", "", { "Cache-Control": "no-cache" });
      const list = await newEvents(1);
      expect(list.map((e) => e.type)).toEqual(["schema.changed"]);
      expect(list[0]!.data).toMatchObject({
        tab: "People",
        columns: ["name", "team", "since"],
        previous_columns: ["name", "team"],
      });
    });

    it("delivers every event, signed so that the standardwebhooks verifier accepts it", async () => {
      const all = await events();
      await until("every event delivered", () => (delivered().size >= all.length ? true : undefined));
      const verifier = new Webhook(secret);
      for (const m of hook.got) {
        const payload = verifier.verify(m.body, m.headers as Record<string, string>) as { type: string };
        expect(payload.type).toMatch(/^(row\.|schema\.)/);
      }
      expect([...delivered().keys()].sort()).toEqual(all.map((e) => e.id).sort());
      expect(() =>
        new Webhook(secret).verify(
          hook.got[0]!.body.replace("Items", "Itemz"),
          hook.got[0]!.headers as Record<string, string>,
        ),
      ).toThrow();
    });

    it("sends a test event at once, signed, answered with the receiver's status, and keeps no trace of it among the sheet's events", async () => {
      const { sendTestEvent } = await import("@/lib/webhooks/test-event");
      const before = (await events()).length;
      const sent = await sendTestEvent({ userId, sheetId, endpointId });
      expect(sent).toMatchObject({ ok: true, status: 204, error: null });
      const got = hook.got.at(-1)!;
      const payload = new Webhook(secret).verify(got.body, got.headers as Record<string, string>) as {
        type: string;
        data: { sheet_id: string };
      };
      expect(payload).toMatchObject({ type: "webhook.test", data: { sheet_id: sheetId } });
      hook.failNext(1);
      expect(await sendTestEvent({ userId, sheetId, endpointId })).toMatchObject({
        ok: false,
        status: 500,
        error: "HTTP 500",
      });
      expect((await events()).length).toBe(before);
      await expect(sendTestEvent({ userId, sheetId, endpointId: "nope" })).rejects.toMatchObject({ code: "not_found" });
    });

    it("after secret rotations, signs with the new secret and, for a day each, those it replaced", async () => {
      const { rotateSecret } = await import("@/lib/webhooks/endpoints");
      // Rotated twice in a row (the first new secret never copied): the original still works.
      const lost = await rotateSecret(sheetId, endpointId);
      const fresh = await rotateSecret(sheetId, endpointId);
      const deliveredBody = async (name: string) =>
        until(`the event of ${name}`, () => hook.got.find((m) => m.body.includes(`"${name}"`)));
      await api.create("Items", { name: "rotated", qty: 1 });
      const during = await deliveredBody("rotated");
      for (const key of [fresh, lost, secret])
        expect(() => new Webhook(key).verify(during.body, during.headers as Record<string, string>)).not.toThrow();
      // Once the grace day is over, only the new secret signs.
      const { getDb } = await import("@/db/client");
      const { webhookEndpoints } = await import("@/db/schema");
      const { eq } = await import("drizzle-orm");
      const [row] = await getDb().select().from(webhookEndpoints).where(eq(webhookEndpoints.id, endpointId));
      await getDb()
        .update(webhookEndpoints)
        .set({
          previousSecrets: row!.previousSecrets.map((p) => ({
            ...p,
            until: new Date(Date.now() - 1000).toISOString(),
          })),
        })
        .where(eq(webhookEndpoints.id, endpointId));
      await api.create("Items", { name: "after grace", qty: 1 });
      const after = await deliveredBody("after grace");
      expect(() => new Webhook(fresh).verify(after.body, after.headers as Record<string, string>)).not.toThrow();
      expect(() => new Webhook(secret).verify(after.body, after.headers as Record<string, string>)).toThrow();
      secret = fresh;
      await newEvents(2);
    });

    it("a receiver that fails then recovers gets every event once (by webhook-id), in order per row", async () => {
      const attempts = (outcome: string) => metricNow("sheetapi_webhook_attempts_total", { outcome });
      const [failedBefore, deliveredBefore] = [attempts("failed"), attempts("delivered")];
      hook.got.length = 0;
      hook.failNext(4);
      await api.update("Items", "3", { qty: 10 });
      await api.update("Items", "3", { qty: 11 });
      await api.update("Items", "1", { qty: 12 });
      await api.update("Items", "3", { qty: 13 });
      const list = await newEvents(4);
      await until("the backlog delivered", () => (list.every((e) => delivered().has(e.id)) ? true : undefined));
      expect(hook.answered()).toBeGreaterThanOrEqual(list.length + 4);
      const row3 = hook.got
        .map((m) => JSON.parse(m.body) as { data: { row_id: string; row: { qty: string } } })
        .filter((m) => m.data.row_id === "3");
      const firstSeen = [...new Map(row3.map((m) => [m.data.row.qty, m])).keys()];
      expect(firstSeen).toEqual(["10", "11", "13"]);
      const { deliveryLog } = await import("@/lib/webhooks/endpoints");
      // The receiver has them all; each delivery is marked delivered just after its 2xx.
      const log = await until("the log to show them delivered", async () => {
        const entries = (await deliveryLog(sheetId, endpointId, 10)).filter((d) =>
          list.some((e) => e.id === d.event.id),
        );
        return entries.length === list.length && entries.every((d) => d.state === "delivered") ? entries : undefined;
      });
      expect(log.some((d) => d.attempts > 1)).toBe(true);
      // What /metrics shows of it: the failed attempts and the deliveries that followed.
      expect(attempts("failed") - failedBefore).toBeGreaterThanOrEqual(4);
      expect(attempts("delivered") - deliveredBefore).toBeGreaterThanOrEqual(list.length);
    });

    it("writes by value (upsert, bulk update by key, filtered delete) produce one event per row at once", async () => {
      const mod = await import("@/app/api/v1/[sheetId]/[tabName]/route");
      const send = (method: "POST" | "PATCH" | "DELETE", query: string, body?: unknown) =>
        callRoute(mod[method], {
          method,
          path: `/api/v1/${sheetId}/Items?${query}`,
          params: { sheetId, tabName: "Items" },
          headers: { "X-API-Key": api.key },
          body,
        });
      expect(
        (
          await send("POST", "upsert=name", [
            { name: "bulk-a", qty: 1 },
            { name: "bulk-b", qty: 2 },
          ])
        ).status,
      ).toBe(201);
      const created = await newEvents(2);
      expect(created.map((e) => [e.type, (e.data.row as { name: string }).name, e.data.source])).toEqual([
        ["row.created", "bulk-a", "api"],
        ["row.created", "bulk-b", "api"],
      ]);
      expect((await send("PATCH", "key=name", [{ name: "bulk-a", qty: 10 }])).status).toBe(200);
      expect((await newEvents(1)).map((e) => [e.type, (e.data.row as { qty: string }).qty])).toEqual([
        ["row.updated", "10"],
      ]);
      expect((await send("DELETE", `filter=${encodeURIComponent("name~=bulk-*")}&limit=2`)).status).toBe(200);
      expect((await newEvents(2)).map((e) => e.type)).toEqual(["row.deleted", "row.deleted"]);
      await api.list("Items", "", { "Cache-Control": "no-cache" });
      await sleep(200);
      expect(await events(`after=${cursor}`)).toEqual([]);
    });

    it("a restart in the middle of a backlog loses nothing", async () => {
      hook.got.length = 0;
      hook.failNext(1_000_000);
      for (let i = 0; i < 5; i++) await api.update("Items", "1", { qty: 100 + i });
      const list = await newEvents(5);
      await until("a failed attempt", () => (hook.answered() > 0 ? true : undefined));
      const { stopQueue } = await import("@/lib/webhooks/queue");
      await stopQueue();
      hook.failNext(0);
      const { startDelivery } = await import("@/lib/webhooks/deliver");
      await startDelivery();
      await until("the backlog delivered after the restart", () =>
        list.every((e) => delivered().has(e.id)) ? true : undefined,
      );
      const order = hook.got.map((m) => (JSON.parse(m.body) as { data: { row: { qty: string } } }).data.row.qty);
      expect([...new Set(order)]).toEqual(["100", "101", "102", "103", "104"]);
    });

    it("resends one delivery with the same webhook-id, and replays a time range", async () => {
      const { deliveryLog } = await import("@/lib/webhooks/endpoints");
      const { resendDelivery, replayRange } = await import("@/lib/webhooks/replay");
      const [latest] = await deliveryLog(sheetId, endpointId, 1);
      hook.got.length = 0;
      await resendDelivery({ userId, sheetId, endpointId, deliveryId: latest!.id });
      await until("the resend", () => (hook.got.length ? true : undefined));
      expect(hook.got[0]!.headers["webhook-id"]).toBe(latest!.event.id);
      hook.got.length = 0;
      const { queued: count, notQueued } = await replayRange({
        userId,
        sheetId,
        endpointId,
        from: new Date(Date.now() - 3_600_000),
        to: new Date(),
      });
      expect(notQueued).toBe(0);
      expect(count).toBe((await events("limit=1000")).length);
      await until("the replay", () => (delivered().size === count ? true : undefined));
    });

    it("removes events older than the retention period, with their deliveries, unless one still waits to be sent", async () => {
      const { eq, inArray } = await import("drizzle-orm");
      const { changeEvents, webhookDeliveries, webhookAttempts } = await import("@/db/schema");
      const { pruneOldEvents } = await import("@/lib/webhooks/retention");
      const db = svc.db.db;
      const all = await events("limit=1000");
      const [sent, waiting, recent] = [all[0]!.seq, all[1]!.seq, all.at(-1)!.seq];
      // Two events aged past 30 days; the second has a delivery its endpoint still waits for.
      await db
        .update(changeEvents)
        .set({ createdAt: new Date(Date.now() - 31 * 86_400_000) })
        .where(inArray(changeEvents.seq, [sent, waiting]));
      const [pending] = await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.eventSeq, waiting));
      await db
        .update(webhookDeliveries)
        .set({ state: "pending", nextAttemptAt: new Date(Date.now() + 86_400_000) })
        .where(eq(webhookDeliveries.id, pending!.id));
      const sentDeliveries = await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.eventSeq, sent));
      expect(sentDeliveries.length).toBeGreaterThan(0);

      expect(await pruneOldEvents()).toBe(1);
      const left = new Set((await events("limit=1000")).map((e) => e.seq));
      expect([left.has(sent), left.has(waiting), left.has(recent)]).toEqual([false, true, true]);
      expect(await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.eventSeq, sent))).toEqual([]);
      expect(
        await db
          .select()
          .from(webhookAttempts)
          .where(
            inArray(
              webhookAttempts.deliveryId,
              sentDeliveries.map((d) => d.id),
            ),
          ),
      ).toEqual([]);
      expect(await pruneOldEvents()).toBe(0);
    });
  });
}
