// A registration made before proof of access existed gets a grace period at its first re-check
// (docs/security.md); GRACE shortens it, on both limit stores and two instances.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { getSheet } from "@/db/queries/sheets";
import { createUser } from "@/db/queries/users";
import { changeEvents, googleGrants, sheets, webhookDeliveries, webhookEndpoints, type User } from "@/db/schema";
import { setLimitStore } from "@/lib/store/store";
import { connectGoogleAccount, pickInGooglePicker } from "@/testing/google";
import { publishSheet } from "@/lib/sheets/sheet-record";
import { instanceClient, startInstance, type Instance, type InstanceClient } from "@/testing/instances";
import type { TestService } from "@/testing/service";
import { serviceAndStores } from "@/testing/stores";

const INTERVAL = 200;
const GRACE = 1_500;
const SA = "sheetapi-local@sheetapi-local.iam.gserviceaccount.com";
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let svc: TestService;
const stores = await serviceAndStores((s) => (svc = s), {
  env: { ACCESS_RECHECK_INTERVAL_MS: String(INTERVAL), ACCESS_PROOF_GRACE_MS: String(GRACE) },
});
let instances: Instance[];
let registration: typeof import("@/lib/sheets/registration/registration");

beforeAll(async () => {
  instances = [await startInstance(), await startInstance()];
  registration = await import("@/lib/sheets/registration/registration");
});
afterAll(() => setLimitStore(undefined));

describe.each(stores)("on the %s store", (storeName, makeStore) => {
  let n = 0;
  let erin: User;
  beforeAll(() => setLimitStore(makeStore()));
  beforeEach(async () => {
    n += 1;
    erin = await createUser({ email: `erin-legacy-${storeName}-${n}@example.com`, plan: "business" });
  });

  /**
   * A sheet shared with the service account and erin as editors, registered as before proof
   * existed: proof "none", no grant of erin's left, due for its first re-check; one webhook
   * delivery waiting.
   */
  async function legacyRegistration(title: string): Promise<{ id: string; keys: InstanceClient[]; delivery: string }> {
    const { spreadsheetId } = await svc.admin("/spreadsheets", {
      title,
      members: { [erin.email!]: "writer", [SA]: "writer" },
      tabs: [
        {
          title: "Items",
          rows: [
            ["id", "name"],
            [1, "first"],
          ],
        },
      ],
    });
    const id = String(spreadsheetId);
    await connectGoogleAccount(erin, erin.email!);
    await pickInGooglePicker(erin.id, [id]);
    const reg = await registration.registerSheet({ userId: erin.id, sheetUrl: id });
    expect(reg.sheet).toMatchObject({ access: "service_account", writable: true });
    const db = getDb();
    await db.delete(googleGrants).where(eq(googleGrants.userId, erin.id));
    const [legacy] = await db
      .update(sheets)
      .set({ proof: "none", grantEmail: null, accessCheckedAt: new Date(0), version: reg.sheet.version + 1 })
      .where(eq(sheets.id, id))
      .returning();
    await publishSheet(legacy);
    const delivery = `dl_legacy_${storeName}_${n}`;
    await db.insert(webhookEndpoints).values({
      id: `ep_legacy_${storeName}_${n}`,
      sheetId: id,
      url: "https://hooks.example.com/erin",
      secretCiphertext: "x",
    });
    const [event] = await db
      .insert(changeEvents)
      .values({
        id: `msg_legacy_${storeName}_${n}`,
        sheetId: id,
        type: "row.created",
        tab: "Items",
        rowId: "1",
        source: "api",
        data: {},
      })
      .returning();
    await db
      .insert(webhookDeliveries)
      .values({ id: delivery, endpointId: `ep_legacy_${storeName}_${n}`, eventSeq: event!.seq, stream: "Items" });
    return { id, keys: instances.map((i) => instanceClient(i, id, reg.apiKey!)), delivery };
  }

  const deliveryState = async (id: string) =>
    (await getDb().select().from(webhookDeliveries).where(eq(webhookDeliveries.id, id)))[0]!.state;

  it("served during the grace (reads, writes, webhooks), suspended when it ends without proof, restored by proof with the same keys", async () => {
    const { id, keys, delivery } = await legacyRegistration("Erin's sheet from before proof");
    const firstCheck = Date.now();
    expect((await keys[0]!.list("Items")).status).toBe(200);
    const unproven = (await getSheet({ id }))!;
    expect(unproven).toMatchObject({ accessState: "unproven", proof: "none" });
    expect(unproven.accessUnprovenSince!.getTime()).toBeGreaterThanOrEqual(firstCheck - 50);

    // Checks within the grace keep it served, counted from the first one.
    await sleep(INTERVAL + 50);
    expect((await keys[1]!.create("Items", { name: "during the grace" })).status).toBe(201);
    expect((await keys[0]!.list("Items")).status).toBe(200);
    expect((await getSheet({ id }))!.accessUnprovenSince).toEqual(unproven.accessUnprovenSince);
    expect(await deliveryState(delivery)).toBe("pending");

    // The grace over: suspended as any lapse is, on both instances; waiting deliveries dropped.
    await sleep(Math.max(0, unproven.accessUnprovenSince!.getTime() + GRACE - Date.now()) + INTERVAL + 50);
    const refused = await keys[1]!.list("Items");
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ success: false, error: "forbidden", reason: "registrant_never_proved" });
    // It says access was never proven, not that it was lost.
    expect(refused.body.message).toMatch(/registered before SheetAPI asked .* to prove/);
    expect(refused.body.message).not.toMatch(/can no longer open it/);
    expect((await keys[0]!.list("Items")).status).toBe(403);
    expect(await getSheet({ id })).toMatchObject({ accessState: "suspended" });
    expect(await deliveryState(delivery)).toBe("cancelled");

    // Erin connects Google, chooses the sheet and proves access: current, with the same keys.
    await connectGoogleAccount(erin, erin.email!);
    await pickInGooglePicker(erin.id, [id]);
    const proven = await registration.registerSheet({ userId: erin.id, sheetUrl: id });
    expect(proven).toMatchObject({
      created: false,
      apiKey: null,
      sheet: { accessState: "current", proof: "edit", accessUnprovenSince: null },
    });
    for (const k of keys) expect((await k.list("Items")).status).toBe(200);
  });

  it("proving access during the grace makes it current at once, and its later lapses are handled as any other", async () => {
    const { id, keys, delivery } = await legacyRegistration("Erin's sheet, proven in time");
    expect((await keys[0]!.list("Items")).status).toBe(200);
    expect(await getSheet({ id })).toMatchObject({ accessState: "unproven" });
    await connectGoogleAccount(erin, erin.email!);
    await pickInGooglePicker(erin.id, [id]);
    const proven = await registration.registerSheet({ userId: erin.id, sheetUrl: id });
    expect(proven.sheet).toMatchObject({ accessState: "current", proof: "edit", accessUnprovenSince: null });
    expect(await deliveryState(delivery)).toBe("pending");
    // Proven, it is re-checked as any registration: removed in Google, it is suspended within the interval, no grace.
    await svc.admin(`/spreadsheets/${id}/access`, { members: { [erin.email!]: "none" } }, "PATCH");
    await sleep(INTERVAL + 50);
    expect((await keys[1]!.list("Items")).status).toBe(403);
    expect(await getSheet({ id })).toMatchObject({ accessState: "suspended" });
  });
});
