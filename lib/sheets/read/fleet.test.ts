// One fleet, not N copies: two instances sharing Postgres and the limit store make the Google
// reads of one for a busy sheet that does not change (a tab one instance read is trusted by the
// other when its copy holds the same values), and Drive change checks are made once per sheet and
// interval across them. An edit made in the sheet still shows on both within the TTL.
import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createUser } from "@/db/queries/users";
import { EMULATOR_SERVICE_ACCOUNT } from "@/emulators/google/seed";
import { getLimitStore, setLimitStore } from "@/lib/store/store";
import { instanceClient, startInstance, type Instance, type InstanceClient } from "@/testing/instances";
import type { TestService } from "@/testing/service";
import { serviceAndStores } from "@/testing/stores";
import { registeredKey } from "@/testing/google";

const CHECK_MS = 300;
const TTL_SECONDS = 1;
const BUSY_MS = 3_200;
let svc: TestService;
const stores = await serviceAndStores((s) => (svc = s), {
  modifiedTimeLagMs: 0,
  env: { CHANGE_CHECK_INTERVAL_MS: String(CHECK_MS) },
});
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.each(stores)("on the %s store", (storeName, makeStore) => {
  let instances: Instance[];
  beforeAll(async () => {
    setLimitStore(makeStore());
    instances = [await startInstance(), await startInstance()];
  });
  beforeEach(() => svc.google.calls.clear());

  /** A new sheet with a short TTL, and a client of it per instance. */
  async function busySheet(): Promise<{ sheetId: string; clients: InstanceClient[] }> {
    const sheetId = String(
      (
        await svc.admin("/spreadsheets", {
          title: `Fleet ${storeName}`,
          members: { [EMULATOR_SERVICE_ACCOUNT]: "writer" },
          tabs: [
            {
              title: "Items",
              rows: [
                ["id", "name"],
                [1, "apple"],
                [2, "pear"],
              ],
            },
          ],
        })
      ).spreadsheetId,
    );
    const user = await createUser({ email: `fleet-${storeName}-${randomUUID()}@example.com`, plan: "business" });
    const key = await registeredKey(user, sheetId);
    await svc.db.db.execute(
      sql`update sheets set cache_ttl_seconds = ${TTL_SECONDS}, version = version + 1 where id = ${sheetId}`,
    );
    const { getSheet } = await import("@/db/queries/sheets");
    const { publishSheet } = await import("@/lib/sheets/sheet-record");
    await publishSheet(await getSheet({ id: sheetId }));
    return { sheetId, clients: instances.map((i) => instanceClient(i, sheetId, key)) };
  }

  /** Reads the tab for BUSY_MS, taking turns over `clients`; the Google calls it cost. */
  async function keepBusy(clients: InstanceClient[]) {
    svc.google.calls.clear();
    const until = Date.now() + BUSY_MS;
    for (let turn = 0; Date.now() < until; turn++) {
      expect((await clients[turn % clients.length]!.list("Items")).status).toBe(200);
      await sleep(25);
    }
    const count = (method: string) => svc.google.calls.get(method) ?? 0;
    return { reads: count("values.get") + count("values.batchGet"), driveChecks: count("files.get") };
  }

  it("serves a busy unchanged sheet from two instances for the Sheets reads of one, and checks Drive once per interval across them", async () => {
    const one = await keepBusy((await busySheet()).clients.slice(0, 1));
    const two = await keepBusy((await busySheet()).clients);
    // Each instance alone re-reads once per TTL; the second instance adds its own first read, and
    // at most one more when both find their copies expired at once (two copies each would be twice).
    expect(one.reads).toBeGreaterThanOrEqual(Math.floor(BUSY_MS / 1000 / TTL_SECONDS));
    expect(two.reads).toBeLessThanOrEqual(one.reads + 2);
    expect(two.reads).toBeLessThan(2 * one.reads);
    expect(two.driveChecks).toBeLessThanOrEqual(one.driveChecks + 1);
    expect(two.driveChecks).toBeLessThanOrEqual(Math.ceil(BUSY_MS / CHECK_MS) + 1);
  });

  it("takes another instance's write for the write on every instance: the other tabs' copies stay, whoever checked Drive last", async () => {
    const sheetId = String(
      (
        await svc.admin("/spreadsheets", {
          title: `Fleet writes ${storeName}`,
          members: { [EMULATOR_SERVICE_ACCOUNT]: "writer" },
          tabs: [
            {
              title: "Items",
              rows: [
                ["id", "name"],
                [1, "apple"],
              ],
            },
            {
              title: "Other",
              rows: [
                ["id", "name"],
                [1, "kept"],
              ],
            },
          ],
        })
      ).spreadsheetId,
    );
    const user = await createUser({ email: `fleet-writes-${storeName}-${randomUUID()}@example.com`, plan: "business" });
    const key = await registeredKey(user, sheetId);
    const [a, b] = instances.map((i) => instanceClient(i, sheetId, key));
    for (const c of [a!, b!]) expect((await c.list("Other")).status).toBe(200);
    expect((await a!.create("Items", { name: "by a" })).status).toBe(201);
    // b checks Drive (a's write counted), and the fleet keeps its answer; then b writes.
    await sleep(CHECK_MS + 50);
    expect((await b!.list("Other")).headers.get("x-cache")).toBe("HIT");
    await sleep(CHECK_MS + 50);
    expect((await b!.create("Items", { name: "by b" })).status).toBe(201);
    // a takes b's answer, then asks Drive: the change it finds is b's write, not an edit.
    await sleep(CHECK_MS + 50);
    svc.google.calls.clear();
    expect((await a!.list("Other")).headers.get("x-cache")).toBe("HIT");
    expect(svc.google.calls.get("values.get") ?? 0).toBe(0);
  });

  it("hands a failed Drive check to the other instances too: they wait for the next interval, as the instance that asked does", async () => {
    const { sheetId, clients } = await busySheet();
    svc.google.faults.add({ route: "files.get", status: 503, count: -1 });
    try {
      await sleep(CHECK_MS + 50);
      expect((await clients[0]!.list("Items")).status).toBe(200);
      const [answer] = await getLimitStore().mget<{ v: number }>([`sheetapi:drive:${sheetId}`]);
      expect(Date.now() - (answer?.v ?? 0)).toBeLessThan(CHECK_MS);
    } finally {
      svc.google.faults.clear();
    }
  });

  it("still shows an edit made in the sheet on both instances within the TTL while Drive's time lags it", async () => {
    const { sheetId, clients } = await busySheet();
    for (const c of clients) await c.list("Items");
    svc.google.setModifiedTimeLag(10 * 60_000);
    try {
      await svc.admin(`/spreadsheets/${sheetId}/values`, { range: "'Items'!B2", values: [["edited"]] });
      await sleep(TTL_SECONDS * 1000 + 100);
      for (const c of clients)
        expect(((await c.list("Items")).body.data as { name: string }[])[0]!.name).toBe("edited");
    } finally {
      svc.google.setModifiedTimeLag(0);
    }
  });
});
