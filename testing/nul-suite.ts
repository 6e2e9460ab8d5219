// What the database cannot store (U+0000, which Postgres text and jsonb refuse) arriving from
// Google: a header or tab name refused at registration and refresh-schema in the envelope, a data
// cell's NUL stored as U+FFFD in change events so later events are not lost, and a failed event
// insert logged at error level and counted. On PGlite and on the real Postgres.
import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { getSheet } from "@/db/queries/sheets";
import { createUser } from "@/db/queries/users";
import type { User } from "@/db/schema";
import { memoryStore, setLimitStore } from "@/lib/store/store";
import { log } from "@/lib/log";
import { metricNow } from "@/testing/metrics";
import { callRoute } from "@/testing/routes";
import { proveAccessWithGoogle, registeredKey } from "@/testing/google";
import { rowsClient } from "@/testing/rows-client";
import { startTestService, type TestService } from "@/testing/service";

const SA = "sheetapi-local@sheetapi-local.iam.gserviceaccount.com";
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export function nulSuite(name: string, dbUrl: string | undefined) {
  describe(`a NUL from Google, on ${name}`, () => {
    let svc: TestService;
    let user: User;
    const sheetWith = async (tabs: { title: string; rows: unknown[][] }[]) =>
      String(
        (await svc.admin("/spreadsheets", { title: "Nul", members: { [SA]: "writer", [user.email!]: "owner" }, tabs }))
          .spreadsheetId,
      );
    const register = async (id: string) => {
      const { registerSheet } = await import("@/lib/sheets/registration/registration");
      await proveAccessWithGoogle(user, [id], user.email!);
      return registerSheet({ userId: user.id, sheetUrl: id });
    };

    beforeAll(async () => {
      svc = await startTestService({ postgresUrl: dbUrl, env: { CHANGE_CHECK_INTERVAL_MS: "600000" } });
      setLimitStore(memoryStore());
      user = await createUser({ email: `nul-${randomUUID()}@example.com`, plan: "business" });
    });
    afterAll(async () => {
      setLimitStore(undefined);
      await svc.stop();
    });

    it("in a header cell or a tab name: registration is refused with validation_error naming it, and nothing is stored", async () => {
      const header = await sheetWith([
        {
          title: "Items",
          rows: [
            ["id", "na\u0000me"],
            [1, "apple"],
          ],
        },
      ]);
      await expect(register(header)).rejects.toMatchObject({
        code: "validation_error",
        message: expect.stringMatching(/NUL.*header cell B1 of the tab "Items"|header cell B1 of the tab "Items".*NUL/),
      });
      expect(await getSheet({ id: header })).toBeUndefined();
      const tab = await sheetWith([{ title: "It\u0000ems", rows: [["id"], [1]] }]);
      await expect(register(tab)).rejects.toMatchObject({
        code: "validation_error",
        message: expect.stringContaining('tab "It\uFFFDems"'),
      });
      expect(await getSheet({ id: tab })).toBeUndefined();
    });

    it("reaching a header after registration: refresh-schema answers 400 in the envelope and the stored schema holds", async () => {
      const id = await sheetWith([
        {
          title: "Items",
          rows: [
            ["id", "name"],
            [1, "apple"],
          ],
        },
      ]);
      const api = rowsClient(id, await registeredKey(user, id));
      await svc.admin(`/spreadsheets/${id}/values`, { range: "Items!B1", values: [["na\u0000me"]] });
      const refresh = await import("@/app/api/[sheetId]/refresh-schema/route");
      const res = await callRoute(refresh.POST, {
        method: "POST",
        path: `/api/${id}/refresh-schema`,
        params: { sheetId: id },
        headers: { "X-API-Key": api.key },
      });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({
        success: false,
        error: "validation_error",
        message: expect.stringContaining("B1"),
      });
      expect(
        ((await getSheet({ id }))!.schema as { tabs: { columns: { name: string }[] }[] }).tabs[0]!.columns.map(
          (c) => c.name,
        ),
      ).toEqual(["id", "name"]);
    });

    it("in a data cell: the change event keeps U+FFFD in its place, and the tab's later changes still become events", async () => {
      const id = await sheetWith([
        {
          title: "Items",
          rows: [
            ["id", "name"],
            [1, "apple"],
          ],
        },
      ]);
      const api = rowsClient(id, await registeredKey(user, id));
      const { startTracking } = await import("@/lib/webhooks/changes");
      await startTracking(id);
      const read = () => api.list("Items", "", { "Cache-Control": "no-cache" });
      const events = async () => {
        const mod = await import("@/app/api/[sheetId]/events/route");
        const res = await callRoute(mod.GET, {
          path: `/api/${id}/events`,
          params: { sheetId: id },
          headers: { "X-API-Key": api.key },
        });
        expect(res.status).toBe(200);
        return res.body.data as { type: string; data: { row_id: string; row: Record<string, string> } }[];
      };
      expect((await read()).status).toBe(200);
      await svc.admin(`/spreadsheets/${id}/values`, {
        range: "Items!A2:B3",
        values: [
          ["1", "ap\u0000ple"],
          ["2", "pe\u0000ar"],
        ],
      });
      expect((await read()).status).toBe(200);
      await sleep(100);
      expect((await events()).map((e) => [e.type, e.data.row_id, e.data.row.name])).toEqual([
        ["row.updated", "1", "ap\uFFFDple"],
        ["row.created", "2", "pe\uFFFDar"],
      ]);
      await svc.admin(`/spreadsheets/${id}/values`, { range: "Items!B3", values: [["plum"]] });
      expect((await api.create("Items", { name: "fig" })).status).toBe(201);
      expect((await read()).status).toBe(200);
      await sleep(100);
      expect((await events()).slice(2).map((e) => [e.type, e.data.row_id, e.data.row.name])).toEqual([
        ["row.updated", "2", "plum"],
        ["row.created", "3", "fig"],
      ]);
    });

    it("an event insert the database refuses is logged at error level and counted, never swallowed", async () => {
      const id = await sheetWith([
        {
          title: "Items",
          rows: [
            ["id", "name"],
            [1, "apple"],
          ],
        },
      ]);
      const api = rowsClient(id, await registeredKey(user, id));
      const { startTracking } = await import("@/lib/webhooks/changes");
      await startTracking(id);
      expect((await api.list("Items", "", { "Cache-Control": "no-cache" })).status).toBe(200);
      const { getDb } = await import("@/db/client");
      await getDb().execute(sql.raw("ALTER TABLE change_events ADD CONSTRAINT refuse_all CHECK (false) NOT VALID"));
      const errors = vi.spyOn(log, "error");
      const before = metricNow("sheetapi_database_errors_total", { during: "events" });
      try {
        expect((await api.create("Items", { name: "pear" })).status).toBe(201);
        await svc.admin(`/spreadsheets/${id}/values`, { range: "Items!B2", values: [["green apple"]] });
        expect((await api.list("Items", "", { "Cache-Control": "no-cache" })).status).toBe(200);
        await sleep(100);
      } finally {
        await getDb().execute(sql.raw("ALTER TABLE change_events DROP CONSTRAINT refuse_all"));
      }
      const messages = errors.mock.calls.map((c) => c[1]);
      errors.mockRestore();
      // The write's events, and the edit's found by the re-read: two failures, each said and counted.
      expect(metricNow("sheetapi_database_errors_total", { during: "events" }) - before).toBe(2);
      expect(messages.filter((m) => typeof m === "string" && /^webhooks: .*events/.test(m))).toHaveLength(2);
    });
  });
}
