// Proof of access is current, not historical (DECISIONS 18): a change made in Google takes effect
// within the re-check interval (INTERVAL here) on every instance, on both limit stores. The
// probe's reproductions (issue 36) first.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { getSheet, recordAccessCheck, takeAccessCheck } from "@/db/queries/sheets";
import { createUser } from "@/db/queries/users";
import { changeEvents, webhookDeliveries, webhookEndpoints, type User } from "@/db/schema";
import { loadSheetDocs } from "@/lib/docs/sheet-docs";
import { setLimitStore } from "@/lib/store/store";
import { renderMetrics } from "@/lib/observability/metrics";
import { connectGoogleAccount, pickInGooglePicker } from "@/testing/google";
import { ownerRead } from "@/lib/sheets/read/owner-reads";
import { recheckAccessSoon } from "@/lib/sheets/access-due";
import { publishSheet, toSheetRecord } from "@/lib/sheets/sheet-record";
import { instanceClient, startInstance, type Instance, type InstanceClient } from "@/testing/instances";
import type { TestService } from "@/testing/service";
import { serviceAndStores } from "@/testing/stores";

const INTERVAL = 400;
const SA = "sheetapi-local@sheetapi-local.iam.gserviceaccount.com";
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Past the interval since the change (and since the last check): the next request must see it. */
const intervalPasses = () => sleep(INTERVAL + 50);

let svc: TestService;
const stores = await serviceAndStores((s) => (svc = s), { env: { ACCESS_RECHECK_INTERVAL_MS: String(INTERVAL) } });
let instances: Instance[];
/** Each instance's own copy of the sheet queries, to count what it asks the database. */
let instanceQueries: (typeof import("@/db/queries/sheets"))[];
let registration: typeof import("@/lib/sheets/registration/registration");

beforeAll(async () => {
  instances = [];
  instanceQueries = [];
  for (let i = 0; i < 2; i++) {
    instances.push(await startInstance());
    instanceQueries.push(await import("@/db/queries/sheets"));
  }
  registration = await import("@/lib/sheets/registration/registration");
});
afterAll(() => setLimitStore(undefined));
afterEach(() => vi.restoreAllMocks());

/** Drive files.get calls made with registrants' grants (the re-checks and proofs), from /metrics. */
function driveChecks(): number {
  return [...renderMetrics().matchAll(/^sheetapi_google_calls_total\{([^}]*)\} (\d+)$/gm)]
    .filter(([, labels]) => labels!.includes('kind="drive"'))
    .reduce((sum, [, , n]) => sum + Number(n), 0);
}

const access = (id: string, members: Record<string, string>, linkAccess?: string) =>
  svc.admin(`/spreadsheets/${id}/access`, { members, ...(linkAccess ? { linkAccess } : {}) }, "PATCH");

describe.each(stores)("on the %s store", (storeName, makeStore) => {
  let n = 0;
  let dave: User; // the file's owner in Google
  let alice: User; // an editor dave shared it with
  beforeAll(() => setLimitStore(makeStore()));
  beforeEach(async () => {
    n += 1;
    dave = await createUser({ email: `dave-${storeName}-${n}@example.com`, plan: "business" });
    alice = await createUser({ email: `alice-${storeName}-${n}@example.com`, plan: "business" });
    for (const u of [dave, alice]) await connectGoogleAccount(u, u.email!);
  });

  /** Dave's sheet, shared with the service account and alice as editors; alice registers it. */
  async function registeredByAlice(title: string): Promise<{ id: string; keys: InstanceClient[] }> {
    const { spreadsheetId } = await svc.admin("/spreadsheets", {
      title,
      members: { [dave.email!]: "owner", [alice.email!]: "writer", [SA]: "writer" },
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
    await pickInGooglePicker(alice.id, [id]);
    const reg = await registration.registerSheet({ userId: alice.id, sheetUrl: id });
    expect(reg.sheet).toMatchObject({ userId: alice.id, proof: "edit", writable: true });
    return { id, keys: instances.map((i) => instanceClient(i, id, reg.apiKey!)) };
  }

  it("alice removed by dave: her key's create is refused within the interval on both instances; dave registering his file takes it", async () => {
    const { id, keys } = await registeredByAlice("Dave's sheet, alice removed");
    expect((await keys[0]!.create("Items", { name: "while an editor" })).status).toBe(201);
    await access(id, { [alice.email!]: "none" });
    await intervalPasses();

    const refused = await keys[1]!.create("Items", { name: "after removal" });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ success: false, error: "forbidden" });
    expect(String(refused.body.message)).toContain(
      "The Google account that registered this sheet can no longer open it",
    );
    expect(String(refused.body.message)).toContain("Prove access again");
    // The other instance honours the same answer at once, and serves nothing of it from its cache.
    const read = await keys[0]!.list("Items", "");
    expect(read.status).toBe(403);
    expect((await keys[0]!.get("Items", "1", { "Cache-Control": "no-cache" })).status).toBe(403);
    expect(await getSheet({ id })).toMatchObject({ accessState: "suspended" });
    // Nor its docs page, nor alice's "Try it" in the dashboard.
    await expect(loadSheetDocs(id)).rejects.toMatchObject({ code: "forbidden" });
    expect(await ownerRead(alice.id, toSheetRecord((await getSheet({ id }))!), { tab: "Items" })).toMatchObject({
      status: 403,
    });

    // Dave picks his own file and registers it: the owner takes it; alice's keys answer 401 as claimed keys do.
    await pickInGooglePicker(dave.id, [id]);
    const daveReg = await registration.registerSheet({ userId: dave.id, sheetUrl: id });
    expect(daveReg).toMatchObject({ created: true, sheet: { userId: dave.id, proof: "edit", accessState: "current" } });
    for (const k of keys) expect((await k.list("Items")).status).toBe(401);
    expect(
      (await instanceClient(instances[1]!, id, daveReg.apiKey!).create("Items", { name: "by its owner" })).status,
    ).toBe(201);
  });

  it("alice made a viewer: read-only within the interval (writes 403 naming why and how to restore, reads go on); an editor again: her same key writes", async () => {
    const { id, keys } = await registeredByAlice("Dave's sheet, alice a viewer");
    await access(id, { [alice.email!]: "reader" });
    await intervalPasses();
    const refused = await keys[0]!.create("Items", { name: "as a viewer" });
    expect(refused.status).toBe(403);
    expect(String(refused.body.message)).toContain("can no longer edit it");
    expect(String(refused.body.message)).toContain("get edit access back in Google Sheets");
    expect((await keys[1]!.create("Items", { name: "as a viewer" })).status).toBe(403);
    expect((await keys[1]!.list("Items")).status).toBe(200);

    await access(id, { [alice.email!]: "writer" });
    await intervalPasses();
    expect((await keys[1]!.create("Items", { name: "an editor again" })).status).toBe(201);
    expect((await keys[0]!.create("Items", { name: "an editor again" })).status).toBe(201);
  });

  it("restored access restores a suspended registration with the same keys; proving again does it at once", async () => {
    const { id, keys } = await registeredByAlice("Dave's sheet, alice back");
    await access(id, { [alice.email!]: "none" });
    await intervalPasses();
    expect((await keys[0]!.list("Items")).status).toBe(403);
    // Still without access: proving again says why, and the registration stays suspended.
    await expect(registration.registerSheet({ userId: alice.id, sheetUrl: id })).rejects.toMatchObject({
      code: "forbidden",
    });
    await access(id, { [alice.email!]: "writer" });
    const again = await registration.registerSheet({ userId: alice.id, sheetUrl: id });
    expect(again).toMatchObject({ created: false, apiKey: null, sheet: { accessState: "current" } });
    for (const k of keys) expect((await k.list("Items")).status).toBe(200);
    expect((await keys[1]!.create("Items", { name: "restored" })).status).toBe(201);
  });

  it("at once when Google refuses a call made with the registrant's grant: the next request re-checks, without waiting for the interval", async () => {
    const { spreadsheetId } = await svc.admin("/spreadsheets", {
      title: "Dave's sheet, through alice's grant",
      members: { [dave.email!]: "owner", [alice.email!]: "writer" },
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
    await pickInGooglePicker(alice.id, [id]);
    const reg = await registration.registerSheet({ userId: alice.id, sheetUrl: id, via: "grant" });
    expect(reg.sheet).toMatchObject({ access: "oauth", writable: true });
    const keys = instances.map((i) => instanceClient(i, id, reg.apiKey!));
    await access(id, { [alice.email!]: "none" });
    // Well within the interval: the write goes to Google with alice's grant, which refuses it.
    expect((await keys[0]!.create("Items", { name: "refused by Google" })).status).toBe(403);
    // The refusal made the check due now (not an interval after the last one), for every instance.
    expect((await getSheet({ id }))!.accessCheckedAt.getTime()).toBe(0);
    const refused = await keys[1]!.list("Items");
    expect(refused.status).toBe(403);
    expect(String(refused.body.message)).toContain("can no longer open it");
    expect(await getSheet({ id })).toMatchObject({ accessState: "suspended" });
  });

  it("a sheet reached through alice's grant is re-checked with that grant: her other Google account that can still open it keeps nothing current, and reads and re-checks agree", async () => {
    const other = `alice-other-${storeName}-${n}@example.com`;
    const { spreadsheetId } = await svc.admin("/spreadsheets", {
      title: "Dave's sheet, alice's two Google accounts",
      members: { [dave.email!]: "owner", [alice.email!]: "writer", [other]: "writer" },
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
    await pickInGooglePicker(alice.id, [id]); // with her first Google account
    await connectGoogleAccount(alice, other);
    await pickInGooglePicker(alice.id, [id]); // and with the other, now her most recent grant
    const reg = await registration.registerSheet({ userId: alice.id, sheetUrl: id, via: "grant" });
    expect(reg.sheet).toMatchObject({ access: "oauth", grantEmail: other, writable: true });
    const keys = instances.map((i) => instanceClient(i, id, reg.apiKey!));

    // Dave removes the account the sheet is reached through; her first account still edits it.
    await access(id, { [other]: "none" });
    expect((await keys[0]!.create("Items", { name: "refused by Google" })).status).toBe(403);
    const before = driveChecks();
    const started = Date.now();
    for (let i = 0; i < 6; i++) {
      const refused = await keys[i % 2]!.list("Items");
      expect(refused.status).toBe(403);
      expect(String(refused.body.message)).toContain("can no longer open it");
    }
    const elapsed = Date.now() - started;
    expect(await getSheet({ id })).toMatchObject({ accessState: "suspended" });
    // One check, with the refused grant: not a check on every refused read. A suspended sheet in
    // use is still re-checked once an interval, so a slow machine may see one more per interval.
    const checks = driveChecks() - before;
    expect(checks).toBeGreaterThanOrEqual(1);
    expect(checks).toBeLessThanOrEqual(1 + Math.floor(elapsed / INTERVAL));
    expect(checks).toBeLessThan(6);

    // Proving again finds the account that can open it: the sheet is reached through it from now on.
    const again = await registration.registerSheet({ userId: alice.id, sheetUrl: id });
    expect(again.sheet).toMatchObject({ access: "oauth", grantEmail: alice.email, accessState: "current" });
    expect((await keys[1]!.create("Items", { name: "through her first account" })).status).toBe(201);
    expect((await keys[0]!.list("Items")).status).toBe(200);
  });

  it("Google refusing reads the re-check does not refuse makes one check an interval, not one a refused request", async () => {
    const { id, keys } = await registeredByAlice("Dave's sheet, refusals and checks disagree");
    await recheckAccessSoon({ id });
    const before = driveChecks();
    expect((await keys[0]!.list("Items")).status).toBe(200);
    expect(driveChecks() - before).toBe(1);
    // Refused again within the interval (Google's read and Drive's answer disagree): no second check now.
    await recheckAccessSoon({ id });
    expect((await getSheet({ id }))!.accessCheckedAt.getTime()).toBeGreaterThan(0);
    expect((await keys[1]!.list("Items")).status).toBe(200);
    expect(driveChecks() - before).toBe(1);
    // An interval later a refusal makes it due at once again.
    await intervalPasses();
    await recheckAccessSoon({ id });
    expect((await getSheet({ id }))!.accessCheckedAt.getTime()).toBe(0);
  });

  it("an instance that lost the turn goes on with the last known state, asking the database once, not on every request", async () => {
    const { id, keys } = await registeredByAlice("Dave's sheet, a turn lost");
    expect((await keys[1]!.list("Items")).status).toBe(200);
    await intervalPasses();
    // Another instance takes the turn and is still asking Google: its answer is not published yet.
    expect(
      await takeAccessCheck({ id, userId: alice.id, dueBefore: new Date(Date.now() - INTERVAL), now: new Date() }),
    ).toBeDefined();
    const turns = vi.spyOn(instanceQueries[1]!, "takeAccessCheck");
    const reads = vi.spyOn(instanceQueries[1]!, "getSheet");
    for (let i = 0; i < 8; i++) expect((await keys[1]!.list("Items")).status).toBe(200);
    expect(turns).toHaveBeenCalledTimes(1);
    expect(reads).not.toHaveBeenCalled();
    // The winner's answer arrives through the store: honoured on the next request.
    await publishSheet(await recordAccessCheck({ id, userId: alice.id, state: "suspended", at: new Date() }));
    expect((await keys[1]!.list("Items")).status).toBe(403);
    expect(turns).toHaveBeenCalledTimes(1);
  });

  it("a grant revoked in Google suspends the registrations it proved, within the interval", async () => {
    const { id, keys } = await registeredByAlice("Dave's sheet, alice's grant revoked");
    expect((await keys[0]!.list("Items")).status).toBe(200);
    await svc.admin("/revoke", { email: alice.email });
    await intervalPasses();
    expect((await keys[1]!.list("Items")).status).toBe(403);
    expect((await keys[0]!.list("Items")).status).toBe(403);
    expect(await getSheet({ id })).toMatchObject({ accessState: "suspended" });
  });

  it("bob's read after carol turns link sharing off: 403 within the interval, 304 revalidations included", async () => {
    const carol = await createUser({ email: `carol-${storeName}-${n}@example.com`, plan: "business" });
    const bob = await createUser({ email: `bob-${storeName}-${n}@example.com`, plan: "business" });
    await connectGoogleAccount(bob, bob.email!);
    const { spreadsheetId } = await svc.admin("/spreadsheets", {
      title: "Carol's link sheet",
      linkAccess: "reader",
      members: { [carol.email!]: "owner" },
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
    await pickInGooglePicker(bob.id, [id]);
    const reg = await registration.registerSheet({ userId: bob.id, sheetUrl: id });
    expect(reg.sheet).toMatchObject({ proof: "view", writable: false });
    const keys = instances.map((i) => instanceClient(i, id, reg.apiKey!));
    expect((await keys[0]!.list("Items")).status).toBe(200);
    const row = await keys[0]!.get("Items", "1");
    expect(row.status).toBe(200);
    const etag = row.headers.get("etag")!;
    expect((await keys[0]!.get("Items", "1", { "If-None-Match": etag })).status).toBe(304);

    await access(id, {}, "none");
    await intervalPasses();
    const refused = await keys[1]!.list("Items");
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ success: false, error: "forbidden" });
    // Nothing from a cache: not the cached list, nor a 304 for the ETag bob already has.
    const conditional = await keys[0]!.get("Items", "1", { "If-None-Match": etag });
    expect(conditional.status).toBe(403);
    expect((await keys[0]!.list("Items")).status).toBe(403);
  });

  it("asks Google once a turn, fleet-wide: concurrent requests on two instances share one check", async () => {
    const { keys } = await registeredByAlice("Dave's sheet, one check a turn");
    expect((await keys[0]!.list("Items")).status).toBe(200);
    await intervalPasses();
    const before = driveChecks();
    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => keys[i % 2]!.list("Items")));
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(200));
    expect(driveChecks() - before).toBe(1);
    // Within the interval: none.
    await Promise.all(keys.map((k) => k.list("Items")));
    expect(driveChecks() - before).toBe(1);
  });

  it("ownership moved in Google: the new owner takes the sheet from the registrant, whose keys answer 401", async () => {
    const erin = await createUser({ email: `erin-${storeName}-${n}@example.com`, plan: "business" });
    await connectGoogleAccount(erin, erin.email!);
    const { id, keys } = await registeredByAlice("Dave's sheet, given to erin");
    // Dave makes erin the owner (he stays an editor, as Drive's transfer leaves him); alice still edits.
    await access(id, { [erin.email!]: "owner", [dave.email!]: "writer" });
    await pickInGooglePicker(erin.id, [id]);
    const erinReg = await registration.registerSheet({ userId: erin.id, sheetUrl: id });
    expect(erinReg).toMatchObject({ created: true, sheet: { userId: erin.id, proof: "edit" } });
    for (const k of keys) expect((await k.list("Items")).status).toBe(401);
    // Dave, no longer the owner, takes nothing from erin.
    await pickInGooglePicker(dave.id, [id]);
    await expect(registration.registerSheet({ userId: dave.id, sheetUrl: id })).rejects.toMatchObject({
      code: "conflict",
    });
  });

  it("Google failing proves nothing: the last known state holds, and the check is tried again later", async () => {
    const { id, keys } = await registeredByAlice("Dave's sheet, Google down");
    await access(id, { [alice.email!]: "none" });
    await intervalPasses();
    await svc.admin("/faults", { route: "files.get", status: 503, count: -1, spreadsheetId: id });
    try {
      const before = Date.now();
      const served = await keys[0]!.list("Items");
      expect(served.status).toBe(200);
      const row = (await getSheet({ id }))!;
      expect(row.accessState).toBe("current");
      // The failed turn is recorded (asked again min(30 s, the interval) later, not on every request).
      expect(row.accessCheckedAt.getTime()).toBeGreaterThanOrEqual(before - INTERVAL);
    } finally {
      await svc.admin("/faults", {}, "DELETE");
    }
  });

  it("suspension drops the sheet's queued webhook deliveries: they are not sent later", async () => {
    const { id, keys } = await registeredByAlice("Dave's sheet, webhooks");
    const db = getDb();
    await db.insert(webhookEndpoints).values({
      id: `ep_${storeName}_${n}`,
      sheetId: id,
      url: "https://hooks.example.com/alice",
      secretCiphertext: "x",
    });
    const [event] = await db
      .insert(changeEvents)
      .values({
        id: `msg_${storeName}_${n}`,
        sheetId: id,
        type: "row.created",
        tab: "Items",
        rowId: "1",
        source: "api",
        data: {},
      })
      .returning();
    await db.insert(webhookDeliveries).values({
      id: `dl_${storeName}_${n}`,
      endpointId: `ep_${storeName}_${n}`,
      eventSeq: event!.seq,
      stream: "Items",
    });
    await access(id, { [alice.email!]: "none" });
    await intervalPasses();
    expect((await keys[0]!.list("Items")).status).toBe(403);
    const [delivery] = await db
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.id, `dl_${storeName}_${n}`));
    expect(delivery!.state).toBe("cancelled");
  });
});
