// The Google quota guard: Sheets calls of one Google identity stay under its per-minute quota
// (here 4, so the test is quick), reads of several tabs coalesce into one batchGet, a read that
// finds no slot serves its last good copy (STALE) or a clean 503, the owner's stats count it all,
// and each account gets a fair share (here 2): one account's burst leaves the others their slots.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser } from "@/db/queries/users";
import { memoryStore, setLimitStore } from "@/lib/limits/store";
import { rowsClient } from "@/testing/rows-client";
import { startTestService, type TestService } from "@/testing/service";
import { proveAccessWithGoogle } from "@/testing/google";

const PER_IDENTITY = 4;
let svc: TestService;
const clients: ReturnType<typeof rowsClient>[] = [];
const sheetIds: string[] = [];

beforeAll(async () => {
  // Drive reports edits at once here, so an edit is noticed within the TTL and a re-read attempted.
  svc = await startTestService({ modifiedTimeLagMs: 0, env: { GOOGLE_QUOTA_PER_IDENTITY_MINUTE: String(PER_IDENTITY), GOOGLE_QUOTA_WAIT_MS: "0", CHANGE_CHECK_INTERVAL_MS: "0", GOOGLE_RETRY_BUDGET_MS: "200" } });
  setLimitStore(memoryStore());
  const { registerSheet } = await import("./registration");
  for (let i = 0; i < 3; i++) {
    // One account per sheet: the service account's quota is shared, each account's share is half.
    const user = await createUser({ email: `quota-${i}-${randomUUID()}@example.com`, plan: "business" });
    const id = String((await svc.admin("/spreadsheets", {
      title: `Quota ${i}`,
      members: { "sheetapi-local@sheetapi-local.iam.gserviceaccount.com": "writer", "owner@example.com": "owner" },
      tabs: [{ title: "A", rows: [["id", "v"], [1, "a"]] }, { title: "B", rows: [["id", "v"], [1, "b"]] }, { title: "C", rows: [["id", "v"], [1, "c"]] }],
    })).spreadsheetId);
    sheetIds.push(id);
    await proveAccessWithGoogle(user, [id]);
    clients.push(rowsClient(id, (await registerSheet({ userId: user.id, sheetUrl: id })).apiKey!));
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
    expect(answers.map((a) => [a.status, a.headers.get("x-cache")])).toEqual([[200, "MISS"], [200, "MISS"], [200, "MISS"]]);
    expect((answers[1]!.body.data as { v: string }[])[0]!.v).toBe("b");
    expect(svc.google.calls.get("values.batchGet")).toBe(1);
    expect(svc.google.calls.get("values.get") ?? 0).toBe(0);
  });

  it("never lets one identity's Sheets calls exceed its quota: past it, STALE copies or a clean 503", async () => {
    // One call used above. Three more cold tabs, one at a time, use the rest of the minute.
    for (const c of [clients[1]!, clients[2]!]) expect((await c.list("A")).status).toBe(200);
    expect((await clients[1]!.list("B")).status).toBe(200);
    const sheetsCalls = () => (svc.google.calls.get("values.get") ?? 0) + (svc.google.calls.get("values.batchGet") ?? 0);
    expect(sheetsCalls()).toBe(PER_IDENTITY);

    // A cold tab now gets a clean 503 with Retry-After, and Google is not called.
    const refused = await clients[2]!.list("C");
    expect(refused.status).toBe(503);
    expect(refused.body).toMatchObject({ success: false, error: "service_unavailable" });
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    // A changed tab with a copy serves that copy, marked STALE.
    await svc.admin(`/spreadsheets/${sheetIds[1]}/values`, { range: "'A'!B2", values: [["edited"]] });
    const stale = await clients[1]!.list("A");
    expect([stale.status, stale.headers.get("x-cache"), (stale.body.data as { v: string }[])[0]!.v]).toEqual([200, "STALE", "a"]);
    expect(sheetsCalls()).toBe(PER_IDENTITY);
  });

  it("shows each sheet's Google calls and cache hit rate", async () => {
    await clients[0]!.list("A"); // a hit
    const { recentSheetStats } = await import("./sheet-stats");
    const first = await recentSheetStats(sheetIds[0]!);
    expect(first.today).toMatchObject({ googleCalls: 1, cacheMisses: 3, cacheHits: 1 });
    expect(first.hitRate).toBeCloseTo(0.25);
    expect((await recentSheetStats(sheetIds[1]!)).today).toMatchObject({ googleCalls: 2, staleServed: 1 });
  });
});

describe("fair shares", () => {
  it("one account's burst of writes through the service account cannot make another account's writes answer 503", async () => {
    setLimitStore(memoryStore());
    // Calendar-minute shares: start well inside a minute.
    if (Date.now() % 60_000 > 50_000) await new Promise((r) => setTimeout(r, 60_000 - (Date.now() % 60_000) + 50));
    svc.google.calls.clear();
    const burst: number[] = [];
    for (let i = 0; i < 4; i++) burst.push((await clients[0]!.create("A", { v: `burst ${i}` })).status);
    // Account 0 gets its half of the identity's writes (2 of 4), then clean 503s.
    expect(burst).toEqual([201, 201, 503, 503]);
    const refused = await clients[0]!.create("A", { v: "one more" });
    expect(refused.body.message).toMatch(/fair share/);
    // The other accounts still write.
    expect((await clients[1]!.create("A", { v: "other account" })).status).toBe(201);
    expect((await clients[2]!.create("A", { v: "third account" })).status).toBe(201);
    // Four creates reached Google (each one atomic batchUpdate); the refused ones did not.
    expect(svc.google.calls.get("spreadsheets.batchUpdate")).toBe(4);
  });
});
