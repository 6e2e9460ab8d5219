// One account's hanging receivers do not delay another's deliveries: each stream is drained on its
// own (no batch waits for its slowest delivery) and an account holds at most its share of the
// slots. Account A has 25 slow-loris endpoints (half never answer, half dribble bytes), and
// account B's one delivery arrives as fast as without them.
import { randomUUID } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { and, eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createUser } from "@/db/queries/users";
import { webhookDeliveries } from "@/db/schema";
import { memoryStore, setLimitStore } from "@/lib/store/store";
import { registeredKey } from "@/testing/google";
import { rowsClient } from "@/testing/rows-client";
import { startTestService, type TestService } from "@/testing/service";
import { PER_ACCOUNT, PER_ENDPOINT } from "./shares";

const SA = "sheetapi-local@sheetapi-local.iam.gserviceaccount.com";
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let svc: TestService;
let slowPort: number;
let fastPort: number;
/** Connections open now, at most and in all, per path. */
const open = new Map<string, number>();
const mostOpen = new Map<string, number>();
const seenOn = new Map<string, number>();
const add = (map: Map<string, number>, key: string, n: number) => map.set(key, (map.get(key) ?? 0) + n).get(key)!;
const sum = (map: Map<string, number>) => [...map.values()].reduce((a, b) => a + b, 0);
// Accepts, reads the request, and never finishes an answer: on /silent it sends nothing, on /dribble a byte every 300 ms.
const slowLoris = createServer((req, res) => {
  const path = req.url ?? "";
  add(seenOn, path, 1);
  mostOpen.set(path, Math.max(mostOpen.get(path) ?? 0, add(open, path, 1)));
  req.on("close", () => add(open, path, -1));
  req.resume();
  if (path.startsWith("/dribble")) {
    res.writeHead(200, { "content-type": "text/plain" });
    const timer = setInterval(() => res.write("."), 300);
    res.on("close", () => clearInterval(timer));
  }
});
/** When each delivery reached the prompt receiver, per path. */
const arrivals = new Map<string, number[]>();
const arrived = (path: string) => arrivals.get(path) ?? [];
const fast = createServer((req, res) => {
  req.resume();
  req.on("end", () => {
    arrivals.set(req.url ?? "", [...arrived(req.url ?? ""), Date.now()]);
    res.writeHead(204).end();
  });
});
const listen = (server: Server) =>
  new Promise<number>((r) => server.listen(0, "127.0.0.1", () => r((server.address() as AddressInfo).port)));

async function account(title: string, rows: (string | number)[][]) {
  const sheetId = String(
    (
      await svc.admin("/spreadsheets", {
        title,
        members: { [SA]: "writer", "owner@example.com": "owner" },
        tabs: [{ title: "Items", rows }],
      })
    ).spreadsheetId,
  );
  const user = await createUser({ email: `${title}-${randomUUID()}@example.com`, plan: "business" });
  return { sheetId, api: rowsClient(sheetId, await registeredKey(user, sheetId)) };
}

async function until(what: string, probe: () => boolean, ms = 10_000) {
  const end = Date.now() + ms;
  while (!probe()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(25);
  }
}

beforeAll(async () => {
  slowPort = await listen(slowLoris);
  fastPort = await listen(fast);
  svc = await startTestService({
    env: { WEBHOOK_ALLOWED_TARGETS: "127.0.0.1", WEBHOOK_TIMEOUT_MS: "10000", CHANGE_CHECK_INTERVAL_MS: "600000" },
  });
  setLimitStore(memoryStore());
});
afterAll(async () => {
  // The hanging receivers go away first, so that no drain waits for them while the queue stops.
  slowLoris.close();
  slowLoris.closeAllConnections();
  const { stopQueue } = await import("./queue");
  await stopQueue();
  fast.close();
  setLimitStore(undefined);
  await svc.stop();
});

it("another account's delivery arrives as fast while one account's receivers hang", async () => {
  const { addEndpoint } = await import("./endpoints");
  const a = await account("hanging", [
    ["id", "name"],
    [1, "a"],
  ]);
  const endpointsOfA: string[] = [];
  for (let i = 0; i < 25; i++)
    endpointsOfA.push(
      (
        await addEndpoint(a.sheetId, "business", {
          url: `http://127.0.0.1:${slowPort}/${i % 2 ? "silent" : "dribble"}/a`,
        })
      ).endpoint.id,
    );
  const b = await account("prompt", [
    ["id", "name"],
    [1, "b"],
  ]);
  await addEndpoint(b.sheetId, "business", { url: `http://127.0.0.1:${fastPort}/b` });
  const { startDelivery } = await import("./deliver");
  await startDelivery();
  for (const { api } of [a, b]) await api.list("Items", "", { "Cache-Control": "no-cache" });

  // Without A: B's delivery on an idle service.
  let sent = Date.now();
  expect((await b.api.create("Items", { name: "alone" })).status).toBe(201);
  await until("B's first delivery", () => arrived("/b").length === 1);
  const alone = arrived("/b")[0]! - sent;

  // A's receivers take every slot they are let have: two waves of 25 streams (two new rows).
  expect((await a.api.create("Items", { name: "x" })).status).toBe(201);
  await until("A's receivers to be reached", () => sum(seenOn) >= PER_ACCOUNT);
  expect((await a.api.create("Items", { name: "y" })).status).toBe(201);
  await sleep(1000);

  sent = Date.now();
  expect((await b.api.create("Items", { name: "beside" })).status).toBe(201);
  await until("B's second delivery", () => arrived("/b").length === 2, 15_000);
  const beside = arrived("/b")[1]! - sent;
  // A's receivers hang for 10 s; B's delivery does not wait for them (under 2 s, or a busy machine's idle time and some).
  expect(beside, `alone ${alone} ms, beside A ${beside} ms`).toBeLessThan(Math.max(2000, alone + 1500));
  // A holds its share and no more, and its waiting deliveries were not attempted (no attempt counted).
  expect(sum(mostOpen)).toBeLessThanOrEqual(PER_ACCOUNT);
  const untried = await svc.db.db
    .select({ id: webhookDeliveries.id })
    .from(webhookDeliveries)
    .where(
      and(
        inArray(webhookDeliveries.endpointId, endpointsOfA),
        eq(webhookDeliveries.state, "pending"),
        eq(webhookDeliveries.attempts, 0),
      ),
    );
  expect(untried.length).toBe(50);
}, 60_000);

it("an account's slow endpoint delays only itself, not the account's other endpoint", async () => {
  const { addEndpoint } = await import("./endpoints");
  const c = await account("mixed", [
    ["id", "name"],
    [1, "c"],
  ]);
  await addEndpoint(c.sheetId, "business", { url: `http://127.0.0.1:${slowPort}/silent/c` });
  await addEndpoint(c.sheetId, "business", { url: `http://127.0.0.1:${fastPort}/c` });
  await c.api.list("Items", "", { "Cache-Control": "no-cache" });
  // Rows one after another: each is a stream of the slow endpoint beside one of the prompt one.
  for (let i = 0; i < 8; i++) {
    expect((await c.api.create("Items", { name: `r${i}` })).status).toBe(201);
    await until(`delivery ${i} to the prompt endpoint`, () => arrived("/c").length === i + 1, 15_000);
    await sleep(100);
  }
  const sent = Date.now();
  expect((await c.api.create("Items", { name: "last" })).status).toBe(201);
  await until("the last delivery to the prompt endpoint", () => arrived("/c").length === 9, 15_000);
  expect(arrived("/c")[8]! - sent).toBeLessThan(2000);
  expect(mostOpen.get("/silent/c")).toBeLessThanOrEqual(PER_ENDPOINT);
}, 60_000);
