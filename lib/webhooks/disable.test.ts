// An endpoint that keeps failing: its deliveries are given up after the retry period, and after
// the disable period the endpoint is disabled with the reason its owner sees. The periods (a day
// and three days) are scaled down here by WEBHOOK_RETRY_SCALE.
import { randomUUID } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createUser } from "@/db/queries/users";
import { webhookEndpoints } from "@/db/schema";
import { memoryStore, setLimitStore } from "@/lib/store/store";
import { registeredKey } from "@/testing/google";
import { rowsClient } from "@/testing/rows-client";
import { startTestService, type TestService } from "@/testing/service";

let svc: TestService;
let calls = 0;
const failing = createServer((req, res) => {
  req.resume();
  calls++;
  res.writeHead(503).end("down");
});

beforeAll(async () => {
  // A day becomes ~0.9 s and three days ~2.6 s.
  svc = await startTestService({ env: { WEBHOOK_ALLOWED_TARGETS: "127.0.0.1", WEBHOOK_RETRY_SCALE: "0.00001" } });
  setLimitStore(memoryStore());
  await new Promise<void>((r) => failing.listen(0, "127.0.0.1", r));
});
afterAll(async () => {
  const { stopQueue } = await import("./queue");
  await stopQueue();
  failing.close();
  setLimitStore(undefined);
  await svc.stop();
});

it("gives deliveries up after the retry period and disables an endpoint failing for the disable period", async () => {
  const sheetId = String(
    (
      await svc.admin("/spreadsheets", {
        title: "Failing",
        members: { "sheetapi-local@sheetapi-local.iam.gserviceaccount.com": "writer", "owner@example.com": "owner" },
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
  const user = await createUser({ email: `failing-${randomUUID()}@example.com`, plan: "business" });
  const api = rowsClient(sheetId, await registeredKey(user, sheetId));
  const { addEndpoint, deliveryLog } = await import("./endpoints");
  const { endpoint } = await addEndpoint(sheetId, "free_trial", {
    url: `http://127.0.0.1:${(failing.address() as AddressInfo).port}/`,
  });
  // Free Trial has one endpoint per sheet (the account itself is on Business, for its request limits).
  await expect(addEndpoint(sheetId, "free_trial", { url: "http://127.0.0.1:9/" })).rejects.toThrow(
    /allows 1 webhook endpoint/,
  );
  const { startDelivery } = await import("./deliver");
  await startDelivery();
  await api.list("Items", "", { "Cache-Control": "no-cache" });
  await new Promise((r) => setTimeout(r, 200));
  const started = Date.now();
  for (let i = 0; i < 3; i++) await api.update("Items", "1", { name: `b${i}` });
  let row = (await svc.db.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, endpoint.id)))[0]!;
  while (row.enabled && Date.now() - started < 20_000) {
    await new Promise((r) => setTimeout(r, 100));
    // Keep events coming, as a sheet in use would.
    await api.update("Items", "1", { name: `c${Date.now()}` });
    row = (await svc.db.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, endpoint.id)))[0]!;
  }
  expect(row.enabled).toBe(false);
  expect(row.disabledReason).toMatch(/every delivery failed since .* \(last: HTTP 503\)/);
  expect(calls).toBeGreaterThan(1);
  const log = await deliveryLog(sheetId, endpoint.id, 100);
  expect(log.some((d) => d.state === "failed" && d.attempts > 1)).toBe(true);
});
