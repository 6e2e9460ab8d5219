// The Google quota guard, with a quota of 4 per identity so the test is quick.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser } from "@/db/queries/users";
import { memoryStore, setLimitStore } from "@/lib/store/store";
import { rowsClient } from "@/testing/rows-client";
import { startTestService, type TestService } from "@/testing/service";
import { registeredKey } from "@/testing/google";

const PER_IDENTITY = 4;
let svc: TestService;
const clients: ReturnType<typeof rowsClient>[] = [];
const sheetIds: string[] = [];

beforeAll(async () => {
  // Drive reports edits at once here, so an edit is noticed within the TTL and a re-read attempted.
  svc = await startTestService({
    modifiedTimeLagMs: 0,
    env: {
      GOOGLE_QUOTA_PER_IDENTITY_MINUTE: String(PER_IDENTITY),
      GOOGLE_QUOTA_WAIT_MS: "0",
      CHANGE_CHECK_INTERVAL_MS: "0",
      GOOGLE_RETRY_BUDGET_MS: "200",
    },
  });
  setLimitStore(memoryStore());
  for (let i = 0; i < 3; i++) {
    // One account per sheet: the service account's quota is shared, each account's share is half.
    const user = await createUser({ email: `quota-${i}-${randomUUID()}@example.com`, plan: "business" });
    const id = String(
      (
        await svc.admin("/spreadsheets", {
          title: `Quota ${i}`,
          members: { "sheetapi-local@sheetapi-local.iam.gserviceaccount.com": "writer", "owner@example.com": "owner" },
          tabs: [
            {
              title: "A",
              rows: [
                ["id", "v"],
                [1, "a"],
              ],
            },
            {
              title: "B",
              rows: [
                ["id", "v"],
                [1, "b"],
              ],
            },
            {
              title: "C",
              rows: [
                ["id", "v"],
                [1, "c"],
              ],
            },
          ],
        })
      ).spreadsheetId,
    );
    sheetIds.push(id);
    clients.push(rowsClient(id, await registeredKey(user, id)));
  }
  // Registration read the sheets outside the guard; the minute starts now.
  setLimitStore(memoryStore());
});
afterAll(async () => {
  setLimitStore(undefined);
  await svc.stop();
});

describe("Google quota guard", () => {
  it("reads three tabs of a sheet in one batchGet", async () => {
    svc.google.calls.clear();
    const answers = await Promise.all(["A", "B", "C"].map((t) => clients[0]!.list(t)));
    expect(answers.map((a) => [a.status, a.headers.get("x-cache")])).toEqual([
      [200, "MISS"],
      [200, "MISS"],
      [200, "MISS"],
    ]);
    expect((answers[1]!.body.data as { v: string }[])[0]!.v).toBe("b");
    expect(svc.google.calls.get("values.batchGet")).toBe(1);
    expect(svc.google.calls.get("values.get") ?? 0).toBe(0);
  });

  it("never lets Sheets calls past the identity's quota or an account's fair share: past them, STALE copies or a clean 503", async () => {
    // One call used above. Two more cold tabs, one per account, use what the accounts' fair
    // shares leave: each of the three has had a call, and the last slot is kept for an account
    // that has not (each may take half of what the others left free, and at least one).
    for (const c of [clients[1]!, clients[2]!]) expect((await c.list("A")).status).toBe(200);
    const sheetsCalls = () =>
      (svc.google.calls.get("values.get") ?? 0) + (svc.google.calls.get("values.batchGet") ?? 0);
    expect(sheetsCalls()).toBe(PER_IDENTITY - 1);

    // A cold tab now gets a clean 503 with Retry-After, and Google is not called.
    const refused = await clients[2]!.list("C");
    expect(refused.status).toBe(503);
    expect(refused.body).toMatchObject({ success: false, error: "service_unavailable" });
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    // A changed tab with a copy serves that copy, marked STALE.
    await svc.admin(`/spreadsheets/${sheetIds[1]}/values`, { range: "'A'!B2", values: [["edited"]] });
    const stale = await clients[1]!.list("A");
    expect([stale.status, stale.headers.get("x-cache"), (stale.body.data as { v: string }[])[0]!.v]).toEqual([
      200,
      "STALE",
      "a",
    ]);
    expect(sheetsCalls()).toBe(PER_IDENTITY - 1);
  });

  it("shows each sheet's Google calls and cache hit rate", async () => {
    await clients[0]!.list("A"); // a hit
    const { recentSheetStats } = await import("@/lib/usage/sheet-stats");
    const first = await recentSheetStats(sheetIds[0]!);
    expect(first.today).toMatchObject({ googleCalls: 1, cacheMisses: 3, cacheHits: 1 });
    expect(first.hitRate).toBeCloseTo(0.25);
    expect((await recentSheetStats(sheetIds[1]!)).today).toMatchObject({ googleCalls: 1, staleServed: 1 });
  });
});

describe("fair shares", () => {
  const newMinute = async () => {
    setLimitStore(memoryStore());
    // Calendar-minute shares: start well inside a minute.
    if (Date.now() % 60_000 > 50_000) await new Promise((r) => setTimeout(r, 60_000 - (Date.now() % 60_000) + 50));
    svc.google.calls.clear();
  };
  const statuses = async (client: (typeof clients)[number], n: number, tab = "B") => {
    const out: number[] = [];
    for (let i = 0; i < n; i++) out.push((await client.create(tab, { v: `write ${i}` })).status);
    return out;
  };

  it("lets a lone account use a shared identity's quota but a reserve, which an account arriving later in the minute finds", async () => {
    await newMinute();
    // 4 a minute, share 0.5: the reserve is 1 (a quarter of the window).
    expect(await statuses(clients[0]!, PER_IDENTITY - 1, "A")).toEqual(Array(PER_IDENTITY - 1).fill(201));
    const refused = await clients[0]!.create("A", { v: "one more" });
    expect([refused.status, refused.body.message]).toEqual([503, expect.stringMatching(/fair share/)]);
    expect(await statuses(clients[1]!, 1)).toEqual([201]);
    expect(svc.google.calls.get("spreadsheets.batchUpdate")).toBe(PER_IDENTITY);
  });

  it("once another account called, one account's burst or two accounts' together cannot make a third account's writes answer 503", async () => {
    await newMinute();
    expect(await statuses(clients[1]!, 1)).toEqual([201]);
    // Account 0 now gets half of what account 1 left free (1 of 3), then clean 503s.
    expect(await statuses(clients[0]!, 3)).toEqual([201, 503, 503]);
    const refused = await clients[0]!.create("B", { v: "one more" });
    expect(refused.body.message).toMatch(/fair share/);
    // Account 1 is held to its share too.
    expect(await statuses(clients[1]!, 1)).toEqual([503]);
    // The third account's first call of the minute finds the slot they had to leave.
    expect(await statuses(clients[2]!, 2)).toEqual([201, 503]);
    // Three creates reached Google (each one atomic batchUpdate); the refused ones did not.
    expect(svc.google.calls.get("spreadsheets.batchUpdate")).toBe(3);
  });

  it("a write the guard refuses was never sent: a clean 503, nothing left to settle, the next write goes straight out", async () => {
    await newMinute();
    // Other accounts fill the identity's write window; reads are counted apart and stay free.
    const identity = "service-account:sheetapi-local@sheetapi-local.iam.gserviceaccount.com";
    const { reserveGoogleCall } = await import("./quota");
    for (let i = 0; i < PER_IDENTITY; i++) await reserveGoogleCall(identity, "write", `filler-${i}`);
    const refused = await clients[2]!.create("C", { v: "refused" });
    expect([refused.status, refused.body.error]).toEqual([503, "service_unavailable"]);
    expect(refused.body.message).toMatch(/write quota.*Nothing was written\./);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    // No fence, no search: the service knows the write did not leave, and says so at once.
    expect(svc.google.calls.get("spreadsheets.batchUpdate") ?? 0).toBe(0);
    expect(svc.google.calls.get("developerMetadata.search") ?? 0).toBe(0);
    const { getLimitStore } = await import("@/lib/store/store");
    expect(await getLimitStore().hgetall(`sheetapi:pending:${sheetIds[2]}:C`)).toEqual({});
    // Whose outcome is known needs no settling: the tab's next write is its one batchUpdate.
    await newMinute();
    expect(await statuses(clients[2]!, 1, "C")).toEqual([201]);
    expect(svc.google.calls.get("spreadsheets.batchUpdate")).toBe(1);
    expect((await clients[2]!.list("C")).body.data).not.toContainEqual(expect.objectContaining({ v: "refused" }));
  });
});

describe("fairLimit", () => {
  it("is the account's share of what the others left free, never below 1", async () => {
    const { fairLimit } = await import("./quota");
    expect(fairLimit(60, 0.5, 0, 0)).toBe(30);
    expect(fairLimit(60, 0.5, 30, 0)).toBe(15);
    expect(fairLimit(60, 0.5, 45, 30)).toBe(22); // 15 used by others: half of 45
    expect(fairLimit(60, 0.5, 60, 0)).toBe(1);
    expect(fairLimit(60, 0.8, 48, 0)).toBe(9);
  });
});
