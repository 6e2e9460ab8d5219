// The serverless shape: with no worker polling, GET /cron/webhooks (as Vercel Cron calls it)
// delivers what is due; /cron/sweeps rolls up and sweeps. Both answer 401 without the secret.
import { randomUUID } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser } from "@/db/queries/users";
import { memoryStore, setLimitStore } from "@/lib/store/store";
import { registeredKey } from "@/testing/google";
import { callRoute } from "@/testing/routes";
import { rowsClient } from "@/testing/rows-client";
import { startTestService, type TestService } from "@/testing/service";

const SA = "sheetapi-local@sheetapi-local.iam.gserviceaccount.com";
const SECRET = "cron-secret-for-tests";
let svc: TestService;
let server: Server;
const received: string[] = [];

describe("cron routes (serverless shape)", () => {
  beforeAll(async () => {
    svc = await startTestService({
      env: { CRON_SECRET: SECRET, CHANGE_CHECK_INTERVAL_MS: "600000", WEBHOOK_ALLOWED_TARGETS: "127.0.0.1" },
    });
    setLimitStore(memoryStore());
    server = createServer((req, res) => {
      let body = "";
      req.on("data", (c: Buffer) => (body += c.toString()));
      req.on("end", () => {
        received.push(body);
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  });
  afterAll(async () => {
    setLimitStore(undefined);
    await new Promise((r) => server.close(r));
    await svc.stop();
  });

  const call = async (path: "/cron/webhooks" | "/cron/sweeps", secret?: string) => {
    const mod =
      path === "/cron/webhooks" ? await import("@/app/cron/webhooks/route") : await import("@/app/cron/sweeps/route");
    return callRoute(mod.GET, { path, params: {}, headers: secret ? { Authorization: `Bearer ${secret}` } : {} });
  };

  it("refuses callers without the secret", async () => {
    expect((await call("/cron/webhooks")).status).toBe(401);
    expect((await call("/cron/sweeps", "wrong")).status).toBe(401);
  });

  it("delivers a due webhook with no worker running, then sweeps", async () => {
    const sheetId = String(
      (
        await svc.admin("/spreadsheets", {
          title: "Cron",
          members: { [SA]: "writer", "owner@example.com": "owner" },
          tabs: [
            {
              title: "Items",
              rows: [
                ["id", "name"],
                [1, "apple"],
              ],
            },
          ],
        })
      ).spreadsheetId,
    );
    const user = await createUser({ email: `cron-${randomUUID()}@example.com`, plan: "business" });
    const api = rowsClient(sheetId, await registeredKey(user, sheetId));
    const { addEndpoint } = await import("@/lib/webhooks/endpoints");
    await addEndpoint(sheetId, "business", { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks` });
    await api.list("Items", "", { "Cache-Control": "no-cache" });
    expect((await api.create("Items", { name: "plum" })).status).toBe(201);
    await new Promise((r) => setTimeout(r, 200));
    expect(received).toEqual([]);

    const res = await call("/cron/webhooks", SECRET);
    expect(res.status).toBe(200);
    expect(res.body.streams as number).toBeGreaterThanOrEqual(1);
    expect(received.map((b) => (JSON.parse(b) as { type: string }).type)).toEqual(["row.created"]);

    const sweeps = await call("/cron/sweeps", SECRET);
    expect(sweeps.status).toBe(200);
    expect(sweeps.body).toMatchObject({ removed_events: 0, failed_batches: [] });
  });
});
