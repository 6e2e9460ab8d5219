// Many identities (GOOGLE_SERVICE_ACCOUNTS): each customer account is shown one of the service's
// addresses; a sheet registers with whichever of them it is shared with and keeps it; each
// identity has its own per-minute quota in the guard, so three identities serve three times the
// Sheets calls of one before the first 503.
import { generateKeyPairSync, randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getSheet } from "@/db/queries/sheets";
import { createUser } from "@/db/queries/users";
import { serviceAccountFor } from "@/lib/google/identities";
import { memoryStore, setLimitStore } from "@/lib/store/store";
import { rowsClient } from "@/testing/rows-client";
import { startTestService, type TestService } from "@/testing/service";
import { registeredKey, uploadServiceAccountKey } from "@/testing/google";
import { createRows } from "@/lib/sheets/write/create-rows";
import { findWriteTab } from "@/lib/sheets/read/rows-api";
import { toSheetRecord } from "@/lib/sheets/sheet-record";

const PER_IDENTITY = 3;
const ACCOUNTS = [1, 2, 3].map((n) => ({
  client_email: `sheetapi-${n}@sheetapi-local.iam.gserviceaccount.com`,
  private_key: generateKeyPairSync("rsa", { modulusLength: 2048 })
    .privateKey.export({ type: "pkcs8", format: "pem" })
    .toString(),
}));
let svc: TestService;

beforeAll(async () => {
  svc = await startTestService({
    env: {
      GOOGLE_SERVICE_ACCOUNTS: JSON.stringify(ACCOUNTS),
      GOOGLE_QUOTA_PER_IDENTITY_MINUTE: String(PER_IDENTITY),
      GOOGLE_QUOTA_ACCOUNT_SHARE: "1",
      GOOGLE_QUOTA_WAIT_MS: "0",
    },
  });
  // Each key's public half uploaded, as IAM holds it for Google.
  for (const a of ACCOUNTS)
    await uploadServiceAccountKey(svc.google.url, { email: a.client_email, privateKey: a.private_key });
  setLimitStore(memoryStore());
});
afterAll(async () => {
  setLimitStore(undefined);
  await svc.stop();
});

/** A sheet shared with `serviceAccount` only, registered by a new account; its rows client. */
async function sharedWith(serviceAccount: string) {
  const user = await createUser({ email: `ids-${randomUUID()}@example.com`, plan: "business" });
  const sheetId = String(
    (
      await svc.admin("/spreadsheets", {
        title: "Identities",
        members: { [serviceAccount]: "writer", "owner@example.com": "owner" },
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
  return { sheetId, api: rowsClient(sheetId, await registeredKey(user, sheetId)) };
}

/**
 * Reads that go to Google each time (no-cache), until the guard refuses one (answered from the
 * last good copy, STALE, or a 503): how many Google served.
 */
async function servedBeforeRefused(api: ReturnType<typeof rowsClient>, limit = 20): Promise<number> {
  for (let served = 0; served < limit; served++) {
    const res = await api.list("Items", "", { "Cache-Control": "no-cache" });
    if (res.status === 503 || res.headers.get("x-cache") === "STALE") return served;
    expect([res.status, res.headers.get("x-cache")]).toEqual([200, "MISS"]);
  }
  return limit;
}

describe("several service accounts", () => {
  it("gives each customer account the least-loaded of the service's addresses, once", async () => {
    const users = await Promise.all(
      [1, 2, 3, 4, 5, 6].map(() => createUser({ email: `spread-${randomUUID()}@example.com` })),
    );
    const shown: string[] = [];
    for (const u of users) shown.push(await serviceAccountFor(u.id));
    const perAddress = ACCOUNTS.map((a) => shown.filter((e) => e === a.client_email).length);
    expect(Math.max(...perAddress) - Math.min(...perAddress)).toBeLessThanOrEqual(1);
    expect(await serviceAccountFor(users[0]!.id)).toBe(shown[0]);
  });

  it("registers a sheet with the service account it is shared with, and keeps it", async () => {
    const { sheetId, api } = await sharedWith(ACCOUNTS[2]!.client_email);
    const row = await getSheet({ id: sheetId });
    expect([row?.access, row?.serviceAccount, row?.writable]).toEqual([
      "service_account",
      ACCOUNTS[2]!.client_email,
      true,
    ]);
    expect((await api.create("Items", { name: "pear" })).status).toBe(201);
  });

  it("sends a write made after the sheet's record changed with the new record, not the one an earlier queued write brought", async () => {
    setLimitStore(memoryStore()); // a new minute
    const { sheetId } = await sharedWith(ACCOUNTS[1]!.client_email);
    const current = toSheetRecord((await getSheet({ id: sheetId }))!);
    // The record as it was before the sheet was registered again with another service account.
    const earlier = { ...current, v: current.v - 1, serviceAccount: ACCOUNTS[0]!.client_email };
    const model = await findWriteTab(current, "Items");
    const [before, after] = await Promise.allSettled([
      createRows({ sheet: earlier, tab: model, body: { name: "before" } }),
      createRows({ sheet: current, tab: model, body: { name: "after" } }),
    ]);
    expect(before.status).toBe("rejected");
    expect(after).toMatchObject({ status: "fulfilled", value: { created: 1 } });
  });

  it("gives each identity its own quota: three serve three times the Sheets reads of one before the guard refuses", async () => {
    // Registration read the sheets outside the guard; the minute's windows start empty here.
    const onOne = [await sharedWith(ACCOUNTS[0]!.client_email), await sharedWith(ACCOUNTS[0]!.client_email)];
    const onThree = await Promise.all(ACCOUNTS.map((a) => sharedWith(a.client_email)));
    setLimitStore(memoryStore());
    let one = 0;
    for (const s of onOne) one += await servedBeforeRefused(s.api);
    setLimitStore(memoryStore()); // a new minute
    let three = 0;
    for (const s of onThree) three += await servedBeforeRefused(s.api);
    expect(one).toBe(PER_IDENTITY);
    expect(three).toBe(3 * PER_IDENTITY);
  });
});
