// `?formulas=true`: formula cells answer with their formula, for keys the sheet's owner allowed;
// other keys get 403 before anything is read. The formulas cost one spreadsheets.get per cached
// copy, only for reads that ask.
import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { createUser } from "@/db/queries/users";
import { EMULATOR_SERVICE_ACCOUNT } from "@/emulators/google/seed";
import { listKeysForSheet, updateKeyFormulas } from "@/lib/keys/manage";
import { setLimitStore } from "@/lib/store/store";
import { rowsClient } from "@/testing/rows-client";
import type { TestService } from "@/testing/service";
import { serviceAndStores } from "@/testing/stores";
import { registeredKey } from "@/testing/google";

let svc: TestService;
const stores = await serviceAndStores((s) => (svc = s));

describe.each(stores)("on the %s store", (storeName, makeStore) => {
  let api: ReturnType<typeof rowsClient>;
  let userId: string;
  let keyId: string;
  const sheetsCalls = () => Object.fromEntries([...svc.google.calls].filter(([route]) => !route.startsWith("files.")));
  const allow = (readFormulas: boolean) => updateKeyFormulas({ userId, keyId, readFormulas });

  beforeAll(async () => {
    setLimitStore(makeStore());
    const sheetId = String(
      (
        await svc.admin("/spreadsheets", {
          title: `Formulas ${storeName}`,
          members: { [EMULATOR_SERVICE_ACCOUNT]: "writer", "owner@example.com": "owner" },
          tabs: [
            {
              title: "Sales",
              rows: [
                ["id", "qty", "price", "total"],
                [1, 2, 10, "=B2*C2"],
                [2, 3, 5, "=B3*C3"],
                [3, 1, 7, "=SUM(B4:C4)"],
              ],
            },
          ],
        })
      ).spreadsheetId,
    );
    const user = await createUser({ email: `formulas-${storeName}-${randomUUID()}@example.com`, plan: "business" });
    userId = user.id;
    api = rowsClient(sheetId, await registeredKey(user, sheetId));
    keyId = (await listKeysForSheet({ userId, sheetId }))[0]!.id;
  });

  it("refuses formulas to a key its owner did not allow, before reading anything", async () => {
    svc.google.calls.clear();
    for (const res of [await api.list("Sales", "formulas=true"), await api.get("Sales", "1", "formulas=true")]) {
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({ success: false, error: "forbidden" });
      expect(JSON.stringify(res.body)).toMatch(/Can read formulas/);
    }
    expect(sheetsCalls()).toEqual({});
    expect((await api.list("Sales")).body.data).toEqual([
      { id: "1", qty: "2", price: "10", total: "20" },
      { id: "2", qty: "3", price: "5", total: "15" },
      { id: "3", qty: "1", price: "7", total: "8" },
    ]);
  });

  it("answers the formulas of formula cells for an allowed key, once per cached copy", async () => {
    await allow(true);
    await api.list("Sales");
    svc.google.calls.clear();
    const res = await api.list("Sales", "formulas=true");
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toEqual([
      { id: "1", qty: "2", price: "10", total: "=B2*C2" },
      { id: "2", qty: "3", price: "5", total: "=B3*C3" },
      { id: "3", qty: "1", price: "7", total: "=SUM(B4:C4)" },
    ]);
    expect(sheetsCalls()).toEqual({ "spreadsheets.get": 1 });
    // Typed values for the other cells; the same copy's formulas, no new call.
    expect((await api.get("Sales", "2", "formulas=true&typed=true")).body.data).toEqual({
      id: 2,
      qty: 3,
      price: 5,
      total: "=B3*C3",
    });
    expect(sheetsCalls()).toEqual({ "spreadsheets.get": 1 });
  });

  it("stops as soon as the owner withdraws the allowance", async () => {
    await allow(false);
    expect((await api.list("Sales", "formulas=true")).status).toBe(403);
    expect((await api.list("Sales", "formulas=maybe")).status).toBe(400);
  });
});
