// On Google's default quotas (60 Sheets reads and 60 writes a minute per identity, the embedded
// defaults), a lone client alternating create and list as fast as it can is not refused: 30 pairs
// in a minute answer without a 503, for one read and one write per create and nothing per list.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createUser } from "@/db/queries/users";
import { memoryStore, setLimitStore } from "@/lib/store/store";
import { rowsClient } from "@/testing/rows-client";
import { startTestService, type TestService } from "@/testing/service";
import { registeredKey } from "@/testing/google";

const PAIRS = 30;
let svc: TestService;
let api: ReturnType<typeof rowsClient>;

beforeAll(async () => {
  // Google's defaults, as the embedded configuration has them (the test service raises them otherwise).
  svc = await startTestService({
    env: {
      GOOGLE_QUOTA_PER_IDENTITY_MINUTE: "60",
      GOOGLE_QUOTA_PER_PROJECT_MINUTE: "300",
      GOOGLE_QUOTA_ACCOUNT_SHARE: "0.5",
    },
  });
  setLimitStore(memoryStore());
  const user = await createUser({ email: `pairs-${randomUUID()}@example.com`, plan: "business" });
  const sheetId = String(
    (
      await svc.admin("/spreadsheets", {
        title: "Pairs",
        members: { "sheetapi-local@sheetapi-local.iam.gserviceaccount.com": "writer", "owner@example.com": "owner" },
        tabs: [
          {
            title: "Items",
            rows: [
              ["id", "name"],
              [1, "first"],
            ],
          },
        ],
      })
    ).spreadsheetId,
  );
  api = rowsClient(sheetId, await registeredKey(user, sheetId));
});
afterAll(async () => {
  setLimitStore(undefined);
  await svc.stop();
});

describe("a lone client on default quotas", () => {
  it(`alternates create and list ${PAIRS} times without a 503, for one read and one write per create`, async () => {
    // Registration read the sheet outside the guard; the quota minute starts now, well inside a calendar minute.
    setLimitStore(memoryStore());
    if (Date.now() % 60_000 > 40_000) await new Promise((r) => setTimeout(r, 60_000 - (Date.now() % 60_000) + 50));
    svc.google.calls.clear();
    const statuses: number[] = [(await api.list("Items")).status];
    for (let i = 0; i < PAIRS; i++) {
      statuses.push((await api.create("Items", { name: `pair ${i}` })).status);
      const listed = await api.list("Items");
      statuses.push(listed.status);
      expect(listed.headers.get("x-cache")).toBe("HIT");
    }
    expect(statuses.filter((s) => s === 503)).toEqual([]);
    expect(statuses).toEqual([200, ...Array.from({ length: PAIRS }, () => [201, 200]).flat()]);
    // The first list, then one read and one write per create; the lists after a create cost nothing.
    expect((svc.google.calls.get("values.get") ?? 0) + (svc.google.calls.get("values.batchGet") ?? 0)).toBe(PAIRS + 1);
    expect(svc.google.calls.get("spreadsheets.batchUpdate")).toBe(PAIRS);
  });

  it("counts its own calls of the minute before as its own, not as other accounts': the next minute's share is not cut by them", async () => {
    const { reserveGoogleCall } = await import("./quota");
    const reserve = () => reserveGoogleCall("service-account:minutes@example.com", "read", "lone-account");
    vi.useFakeTimers({ toFake: ["Date"] });
    try {
      const minute = (Math.floor(Date.now() / 60_000) + 2) * 60_000;
      vi.setSystemTime(minute - 5_000);
      setLimitStore(memoryStore());
      for (let i = 0; i < 30; i++) await reserve();
      // A new calendar minute: the identity's sliding minute still holds those 30 calls, all this account's.
      vi.setSystemTime(minute + 1_000);
      for (let i = 0; i < 30; i++) await reserve();
      // 60 in the identity's sliding minute: Google's quota, kept.
      await expect(reserve()).rejects.toMatchObject({
        code: "service_unavailable",
        message: expect.stringMatching(/Google identity/),
      });
    } finally {
      vi.useRealTimers();
      setLimitStore(memoryStore());
    }
  });
});
