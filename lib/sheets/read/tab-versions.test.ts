// Per-tab data versions: a write re-reads only its own tab; a change Drive reports that no write
// explains re-reads the cached tabs together; a schema refresh re-reads them all.
import { randomUUID } from "node:crypto";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createUser } from "@/db/queries/users";
import { setLimitStore } from "@/lib/store/store";
import { rowsClient } from "@/testing/rows-client";
import type { TestService } from "@/testing/service";
import { serviceAndStores } from "@/testing/stores";
import { registeredKey } from "@/testing/google";

const CHECK_MS = 200;
let svc: TestService;
const stores = await serviceAndStores((s) => (svc = s), {
  modifiedTimeLagMs: 0,
  env: { CHANGE_CHECK_INTERVAL_MS: String(CHECK_MS) },
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const SA = "sheetapi-local@sheetapi-local.iam.gserviceaccount.com";

describe.each(stores)("on the %s store", (storeName, makeStore) => {
  let sheetId: string;
  let api: ReturnType<typeof rowsClient>;
  const reads = () => ({
    get: svc.google.calls.get("values.get") ?? 0,
    batch: svc.google.calls.get("values.batchGet") ?? 0,
  });
  const cacheOf = async (tab: string) => (await api.list(tab)).headers.get("x-cache");

  beforeAll(async () => {
    setLimitStore(makeStore());
    sheetId = String(
      (
        await svc.admin("/spreadsheets", {
          title: `Tab versions ${storeName}`,
          members: { [SA]: "writer", "owner@example.com": "owner" },
          tabs: [
            { title: "Big", rows: [["id", "name"], ...Array.from({ length: 50 }, (_, i) => [i + 1, `row ${i + 1}`])] },
            {
              title: "Small",
              rows: [
                ["id", "x"],
                [1, "a"],
              ],
            },
            {
              title: "Third",
              rows: [
                ["id", "y"],
                [1, "b"],
              ],
            },
          ],
        })
      ).spreadsheetId,
    );
    const user = await createUser({ email: `versions-${storeName}-${randomUUID()}@example.com`, plan: "business" });
    api = rowsClient(sheetId, await registeredKey(user, sheetId));
  });
  beforeEach(async () => {
    // Every tab cached and current, Drive's answer taken: each test starts from quiet.
    for (const tab of ["Big", "Small", "Third"]) await api.list(tab);
    await sleep(CHECK_MS + 50);
    for (const tab of ["Big", "Small", "Third"]) await api.list(tab);
    svc.google.calls.clear();
  });

  it("serves the written tab from the write's own read-back; the other tabs stay cached, before and after Drive reports the write", async () => {
    expect((await api.create("Big", { name: "new" })).status).toBe(201);
    expect(await cacheOf("Small")).toBe("HIT");
    const afterWrite = reads();
    const big = await api.list("Big", "filter=name=new");
    expect([big.headers.get("x-cache"), (big.body.meta as { total: number }).total]).toEqual(["HIT", 1]);
    expect(reads().get + reads().batch - afterWrite.get - afterWrite.batch).toBe(0);
    // Past the change-check interval Drive reports the write's modifiedTime: explained, nothing re-read.
    await sleep(CHECK_MS + 50);
    svc.google.calls.clear();
    expect([await cacheOf("Small"), await cacheOf("Third"), await cacheOf("Big")]).toEqual(["HIT", "HIT", "HIT"]);
    expect(reads()).toEqual({ get: 0, batch: 0 });
    expect(svc.google.calls.get("files.get") ?? 0).toBeGreaterThanOrEqual(1);
  });

  it("re-reads the cached tabs in one batch when Drive reports an edit made in the sheet", async () => {
    await svc.admin(`/spreadsheets/${sheetId}/values`, { range: "'Third'!B2", values: [["edited"]] });
    await sleep(CHECK_MS + 50);
    expect(await cacheOf("Small")).toBe("MISS");
    await sleep(20); // the batch of the siblings settles
    expect(reads()).toEqual({ get: 0, batch: 1 });
    const third = await api.list("Third");
    expect([third.headers.get("x-cache"), (third.body.data as { y: string }[])[0]!.y]).toEqual(["HIT", "edited"]);
    expect(await cacheOf("Big")).toBe("HIT");
    expect(reads()).toEqual({ get: 0, batch: 1 });
  });

  it("shows an edit made in the sheet right after a write through the service as soon as Drive reports it", async () => {
    expect((await api.update("Small", "1", { x: "through the API" })).status).toBe(200);
    await sleep(50);
    await svc.admin(`/spreadsheets/${sheetId}/values`, { range: "'Third'!B2", values: [["edited after a write"]] });
    await sleep(CHECK_MS + 50);
    const third = await api.list("Third");
    expect((third.body.data as { y: string }[])[0]!.y).toBe("edited after a write");
  });

  it("re-reads every tab after a schema refresh", async () => {
    const { callRoute } = await import("@/testing/routes");
    const refresh = await callRoute((await import("@/app/api/[sheetId]/refresh-schema/route")).POST, {
      method: "POST",
      path: `/api/${sheetId}/refresh-schema`,
      params: { sheetId },
      headers: { "X-API-Key": api.key },
    });
    expect(refresh.status).toBe(200);
    expect([await cacheOf("Small"), await cacheOf("Third"), await cacheOf("Big")]).toEqual(["MISS", "MISS", "MISS"]);
  });
});
