// An owner's grant over time: access tokens are refreshed when they expire, and a revoked grant
// flags the sheet for re-authorization and answers with a clear error.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getSheet } from "@/db/queries/sheets";
import { toSheetRecord } from "@/lib/sheets/sheet-record";
import { createUser } from "@/db/queries/users";
import { PRIVATE_SPREADSHEET_ID } from "@/emulators/google/seed";
import { ApiError } from "@/lib/errors";
import { connectGoogleAccount, pickInGooglePicker, proveAccessWithGoogle } from "@/testing/google";
import { startTestService, type TestService } from "@/testing/service";

let svc: TestService;

beforeAll(async () => {
  svc = await startTestService();
  const { registerSheet } = await import("@/lib/sheets/registration/registration");
  const user = await createUser({ email: "owner@example.com" });
  await proveAccessWithGoogle(user, [PRIVATE_SPREADSHEET_ID], "owner@example.com");
  await registerSheet({ userId: user.id, sheetUrl: PRIVATE_SPREADSHEET_ID, via: "grant" });
});
afterAll(() => svc.stop());

describe("an owner's grant", () => {
  it("refreshes the access token when it expires", async () => {
    const { refreshSheetModel } = await import("@/lib/sheets/read/schema");
    await svc.admin("/token-ttl", { seconds: 1 });
    svc.google.calls.clear();
    const sheet = toSheetRecord((await getSheet({ id: PRIVATE_SPREADSHEET_ID }))!);
    await refreshSheetModel(sheet);
    await new Promise((r) => setTimeout(r, 1100));
    await refreshSheetModel(sheet);
    expect(svc.google.calls.get("oauth.token")).toBeGreaterThanOrEqual(2);
    expect(svc.google.calls.get("spreadsheets.get")).toBe(4);
  });

  it("counts each call in the metrics by the Google method it made and its outcome", async () => {
    const { refreshSheetModel } = await import("@/lib/sheets/read/schema");
    const { renderMetrics } = await import("@/lib/observability/metrics");
    const okReads = () => {
      const line = renderMetrics()
        .split("\n")
        .find(
          (l) =>
            l.startsWith("sheetapi_google_calls_total{") &&
            l.includes('method="spreadsheets.get"') &&
            l.includes('outcome="ok"'),
        );
      return line ? Number(line.split(" ").at(-1)) : 0;
    };
    const before = okReads();
    await refreshSheetModel(toSheetRecord((await getSheet({ id: PRIVATE_SPREADSHEET_ID }))!));
    expect(okReads()).toBe(before + 1);
  });

  it("a 401 to the grant's live access token (revoked in Google) makes every sheet of the account due for its re-check at once", async () => {
    const { refreshSheetModel } = await import("@/lib/sheets/read/schema");
    const { registerSheet } = await import("@/lib/sheets/registration/registration");
    await svc.admin("/token-ttl", { seconds: 3600 });
    const alice = await createUser({ email: "alice@example.com" });
    await connectGoogleAccount(alice, "alice@example.com");
    const ids: string[] = [];
    for (const title of ["Alice's first", "Alice's second"]) {
      const { spreadsheetId } = await svc.admin("/spreadsheets", {
        title,
        members: { "alice@example.com": "owner" },
        tabs: [{ title: "Items", rows: [["id"], [1]] }],
      });
      ids.push(String(spreadsheetId));
    }
    await pickInGooglePicker(alice.id, ids);
    for (const id of ids) await registerSheet({ userId: alice.id, sheetUrl: id, via: "grant" });
    const record = async (id: string) => toSheetRecord((await getSheet({ id }))!);
    // Each sheet's client now holds an access token Google honours for the hour.
    for (const id of ids) await refreshSheetModel(await record(id));
    for (const id of ids) expect((await getSheet({ id }))!.accessCheckedAt.getTime()).toBeGreaterThan(0);

    await svc.admin("/revoke", { email: "alice@example.com" });
    await expect(refreshSheetModel(await record(ids[0]!))).rejects.toMatchObject({ code: "forbidden" });
    for (const id of ids) expect((await getSheet({ id }))!.accessCheckedAt.getTime()).toBe(0);
    // The refused sheet's next call signs in afresh, and Google's invalid_grant flags it for the owner.
    await expect(refreshSheetModel(await record(ids[0]!))).rejects.toMatchObject({
      message: expect.stringMatching(/re-authorize/),
    });
    expect((await getSheet({ id: ids[0]! }))!.needsReauth).toBe(true);
  });

  it("flags the sheet and answers forbidden once the grant is revoked", async () => {
    const { refreshSheetModel } = await import("@/lib/sheets/read/schema");
    await svc.admin("/revoke", { email: "owner@example.com" });
    const sheet = toSheetRecord((await getSheet({ id: PRIVATE_SPREADSHEET_ID }))!);
    const err = await refreshSheetModel(sheet).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).code).toBe("forbidden");
    expect((err as ApiError).message).toMatch(/re-authorize/);
    expect((await getSheet({ id: PRIVATE_SPREADSHEET_ID }))!.needsReauth).toBe(true);
  });
});
